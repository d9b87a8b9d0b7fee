import { mimeFromName } from "@/browser/media-type";

/**
 * Originals a browser plays or shows itself, so the viewer plays them at once while the proxy
 * renders (a QuickTime ProRes or an MXF waits for the proxy).
 */
const browserPlayable = new Set([
  "video/mp4",
  "video/webm",
  "audio/mpeg",
  "audio/mp4",
  "audio/aac",
  "audio/wav",
  "audio/x-wav",
  "audio/wave",
  "audio/ogg",
  "audio/webm",
  "audio/flac",
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
  "image/avif",
  "image/svg+xml",
]);

export const isBrowserPlayable = (mime: string | null | undefined) =>
  !!mime && browserPlayable.has(mime.toLowerCase());

/** A file's type as given, else as its name says. */
export const typeOf = (file: { path: string; mimeType?: string | null }) =>
  file.mimeType ?? mimeFromName(file.path);
