// A file's type from its name, for lists that carry none (a share's items): the console's viewer
// and the public pages alike.

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
