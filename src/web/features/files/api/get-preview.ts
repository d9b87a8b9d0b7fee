import type { FileEntry } from "@/contract/files";
import { thumbnailKindOf } from "@/contract/media-rules";

/**
 * Whether the service makes a thumbnail of this entry (images, video, PDF, audio with content).
 * By the contract's rule rather than `lib/file-preview`, so the Files page's first load carries
 * none of the thumbnail fetching, which loads with the first thumbnail.
 */
export const hasPreview = (entry: FileEntry) =>
  entry.type === "file" && entry.sha256 !== null && thumbnailKindOf(entry.mimeType) !== null;
