import { useQueryClient } from "@tanstack/react-query";
import { Suspense } from "react";
import { mimeFromName } from "@/browser/media-type";
import type { PortalUpload, PortalUploadFile } from "@/contract/portals";
import { Skeleton } from "@/web/components/ui/skeleton";
import { streamLink } from "@/web/features/transfers";
import { mediaKindOf } from "@/web/features/viewer";
import { InlinePlayer } from "@/web/features/viewer/inline";
import { markersOf } from "@/web/lib/media-anchors";
import { useUploadNotesQuery } from "../api/list-upload-notes";
import { shownPath } from "../state/upload-paths";

/** The file's type, from the probe's MIME type or its name. */
export const mimeOf = (f: PortalUploadFile) => f.mime ?? mimeFromName(f.path);

/** A landed file the viewer can show: video, audio, image or PDF. */
export const canPreview = (f: PortalUploadFile) =>
  f.sha256 !== null && mediaKindOf(mimeOf(f)) !== null;

/**
 * The chosen file of the upload, played, scrubbed or paged in the inspector before the decision,
 * with its notes as markers. The player loads with the first upload that has media to show.
 */
export function UploadPreview({
  workspaceId,
  upload,
  file,
}: {
  workspaceId: string;
  upload: PortalUpload;
  file: PortalUploadFile;
}) {
  const queryClient = useQueryClient();
  const notes = useUploadNotesQuery(workspaceId, upload.id);
  const request = {
    target: {
      workspaceId,
      path: file.path,
      title: shownPath(upload, file.path),
      mimeType: mimeOf(file),
      sizeBytes: file.size,
    },
    markers: markersOf(notes.data?.items ?? [], file.path),
  };
  return (
    <Suspense fallback={<Skeleton className="h-72" />}>
      <InlinePlayer request={request} streamLink={(f) => streamLink(queryClient, f)} />
    </Suspense>
  );
}
