import { createSHA256 } from "hash-wasm";
import type * as tus from "tus-js-client";

/*
 * What the console's upload engine and the portal page's uploader share of sending a file with
 * tus: the retry policy, the error text, and the file's SHA-256. Both load it with their engine,
 * never with a page.
 */

/** A dropped connection is retried by tus for about two minutes before the engine gives up. */
export const RETRY_DELAYS = [0, 1_000, 3_000, 5_000, 10_000, 10_000, 20_000, 30_000, 30_000];
/** The hash is read in slices of this size, so a large file never sits whole in memory. */
const HASH_SLICE_BYTES = 8 * 1024 * 1024;

export const statusOf = (error: tus.DetailedError) => error.originalResponse?.getStatus() ?? 0;

/** Worth another try: no answer, a server error, a lock or conflict, or the node's streams busy. */
export const retryable = (status: number) =>
  status === 0 || status >= 500 || status === 409 || status === 423 || status === 429;

/** The node's envelope message (a file outside a portal's rules says why), else tus's own. */
export function uploadError(error: Error | tus.DetailedError): string {
  const body = "originalResponse" in error ? error.originalResponse?.getBody() : undefined;
  try {
    const message = body
      ? (JSON.parse(body) as { error?: { message?: string } }).error?.message
      : "";
    if (message) return message;
  } catch {
    // Not the envelope: tus's message says what failed.
  }
  return error.message.split("\n")[0] || "The upload failed";
}

/**
 * The file's SHA-256, read slice by slice; null as soon as `current()` says the work is stale (the
 * file was paused or started again). `onHashed` hears how many bytes are hashed so far.
 */
export async function sha256OfFile(
  file: File,
  current: () => boolean,
  onHashed?: (bytes: number) => void,
): Promise<string | null> {
  const hasher = await createSHA256();
  hasher.init();
  for (let at = 0; at < file.size; at += HASH_SLICE_BYTES) {
    if (!current()) return null;
    hasher.update(new Uint8Array(await file.slice(at, at + HASH_SLICE_BYTES).arrayBuffer()));
    onHashed?.(Math.min(file.size, at + HASH_SLICE_BYTES));
  }
  return hasher.digest("hex");
}
