/**
 * The sending engine (tus-js-client, hash-wasm) loads apart from the page, fetched as soon as a
 * file is picked. A failed fetch is not kept: the next call tries again.
 */
let engine: Promise<typeof import("./uploader")> | null = null;

export function loadUploader() {
  engine ??= import("./uploader").catch((error) => {
    engine = null;
    throw error;
  });
  return engine;
}
