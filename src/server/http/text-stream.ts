/**
 * A response body streamed from text chunks, pulled one at a time (so a big answer is never
 * held whole) and stopped when the client goes away.
 */
export function textStream(chunks: Iterator<string> | AsyncIterator<string>) {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return?.(undefined);
    },
  });
}
