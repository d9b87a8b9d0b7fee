import type { FileEntry } from "@/contract/files";
import { isPreviewable } from "@/web/lib/file-preview";

/** Whether the service makes a thumbnail of this entry (only images with content). */
export const hasPreview = (entry: FileEntry) =>
  entry.type === "file" && entry.sha256 !== null && isPreviewable(entry.mimeType);
