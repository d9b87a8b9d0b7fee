import type { MediaKind } from "@/contract/media-rules";

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
