import type { MediaKind } from "@/contract/media-rules";

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

const byExtension: Record<string, string> = {
  mp4: "video/mp4",
  m4v: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  aac: "audio/aac",
  wav: "audio/wav",
  ogg: "audio/ogg",
  flac: "audio/flac",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
};

/** A type from the name's extension, for lists that carry none (a share's items). */
export const mimeFromName = (name: string): string | null =>
  byExtension[name.slice(name.lastIndexOf(".") + 1).toLowerCase()] ?? null;

/** What a file of this type is to the viewer, before the service says (`null`: not media). */
export function mediaKindOf(mime: string | null | undefined): MediaKind | null {
  if (!mime) return null;
  const type = mime.toLowerCase();
  if (type === "application/pdf") return "pdf";
  if (type.startsWith("video/") || type === "application/mxf") return "video";
  if (type.startsWith("audio/")) return "audio";
  if (type.startsWith("image/")) return "image";
  return null;
}

/** A file's type as given, else as its name says. */
export const typeOf = (file: { path: string; mimeType?: string | null }) =>
  file.mimeType ?? mimeFromName(file.path);
