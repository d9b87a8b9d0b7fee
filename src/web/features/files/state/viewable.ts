import type { FileEntry } from "@/contract/files";
import { mediaKindOf, useViewerStore, type ViewerTarget } from "@/web/features/viewer";

/** Whether the viewer shows this entry: a file with content that is video, audio, image or PDF. */
export const canView = (entry: FileEntry) =>
  entry.type === "file" && entry.sha256 !== null && mediaKindOf(entry.mimeType) !== null;

/** The viewer's target for a file's live content, or for one of its kept versions. */
export const viewerTarget = (
  workspaceId: string,
  entry: FileEntry,
  version?: { id: string; title: string },
): ViewerTarget => ({
  workspaceId,
  path: entry.path,
  mimeType: entry.mimeType,
  sizeBytes: entry.sizeBytes,
  ...(version && { version: version.id, title: version.title }),
});

/** Opens the viewer on a file. */
export const viewEntry = (workspaceId: string, entry: FileEntry) =>
  useViewerStore.getState().show({ target: viewerTarget(workspaceId, entry) });
