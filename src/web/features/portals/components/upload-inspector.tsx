import { useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { DownloadIcon } from "lucide-react";
import { formatBytes, formatDateTime } from "@/browser/format";
import type { ReviewDecision } from "@/contract/portal-rules";
import type { PortalUpload } from "@/contract/portals";
import { Button } from "@/web/components/ui/button";
import { ProgressBar } from "@/web/components/ui/progress-bar";
import { download } from "@/web/features/transfers";
import { reviewProblem, senderOf } from "../state/review-undo";
import { SpecCheckBadge, UploadStatusBadge } from "./portal-badges";
import { FilesPart, Part, SpecCheckPart } from "./upload-inspector-parts";
import { UploadNotesPart } from "./upload-notes";

/**
 * Everything about the active upload that a row has no room for: every answer, the files with
 * larger thumbnails, each spec problem and what the probe found, and the review.
 */
export function UploadInspector({
  workspaceId,
  upload,
  labelOf,
  onDecide,
  onReject,
}: {
  workspaceId: string;
  upload: PortalUpload;
  labelOf(portalId: string, key: string): string;
  onDecide(decision: ReviewDecision): void;
  onReject(): void;
}) {
  const answers = Object.entries(upload.fields);
  return (
    <div className="grid gap-5 p-4 text-sm">
      <InspectorHeading upload={upload} />

      {upload.status === "uploading" && (
        <ProgressBar
          label="Received so far"
          percent={
            upload.bytesTotal ? Math.floor((upload.bytesDone / upload.bytesTotal) * 100) : null
          }
          unknownText={`${formatBytes(upload.bytesDone)} so far`}
        />
      )}

      <DecisionButtons upload={upload} onDecide={onDecide} onReject={onReject} />

      {(upload.reviewedAt || upload.reviewNote) && (
        <Part title="Review">
          {upload.reviewNote && (
            <p className="whitespace-pre-wrap break-words">
              <span className="text-muted-foreground">Internal: </span>“{upload.reviewNote}”
            </p>
          )}
          {upload.noteToSender && (
            <p className="whitespace-pre-wrap break-words">
              <span className="text-muted-foreground">To the sender: </span>“{upload.noteToSender}”
            </p>
          )}
          <p className="text-muted-foreground">
            {upload.reviewedBy ? `${upload.reviewedBy.name}, ` : ""}
            {formatDateTime(upload.reviewedAt)}
          </p>
        </Part>
      )}

      {upload.message && (
        <Part title="Message">
          <p className="whitespace-pre-wrap break-words rounded-md bg-muted p-2">
            {upload.message}
          </p>
        </Part>
      )}

      {answers.length > 0 && (
        <Part title="Answers">
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            {answers.map(([key, value]) => (
              <div key={key} className="contents">
                <dt className="text-muted-foreground">{labelOf(upload.portalId, key)}</dt>
                <dd className="min-w-0 break-words">
                  {value || <span className="text-muted-foreground">—</span>}
                </dd>
              </div>
            ))}
          </dl>
        </Part>
      )}

      <FilesPart workspaceId={workspaceId} upload={upload} />

      <UploadNotesPart workspaceId={workspaceId} upload={upload} />

      <SpecCheckPart upload={upload} />
    </div>
  );
}

function InspectorHeading({ upload }: { upload: PortalUpload }) {
  return (
    <div className="grid gap-1">
      <h2 className="break-words text-base font-semibold">{senderOf(upload)}</h2>
      {upload.senderEmail && (
        <a href={`mailto:${upload.senderEmail}`} className="break-all text-link hover:underline">
          {upload.senderEmail}
        </a>
      )}
      <p className="text-muted-foreground">
        Through{" "}
        <Link
          to="/portals"
          search={{ portal: upload.portalId }}
          className="text-link underline underline-offset-2"
        >
          {upload.portalTitle}
        </Link>
        , {formatDateTime(upload.completedAt ?? upload.createdAt)}
      </p>
      <div className="mt-1 flex flex-wrap items-center gap-2">
        <UploadStatusBadge upload={upload} />
        <SpecCheckBadge check={upload.specCheck} />
      </div>
    </div>
  );
}

function DecisionButtons({
  upload,
  onDecide,
  onReject,
}: {
  upload: PortalUpload;
  onDecide(decision: ReviewDecision): void;
  onReject(): void;
}) {
  const problem = reviewProblem(upload);
  return (
    <div className="flex flex-wrap gap-2">
      {problem ? (
        <p className="text-muted-foreground">{problem}</p>
      ) : (
        <>
          <Button size="sm" onClick={() => onDecide("approved")} aria-keyshortcuts="a">
            Approve <kbd className="font-mono text-xs opacity-70">a</kbd>
          </Button>
          <Button size="sm" variant="outline" onClick={onReject} aria-keyshortcuts="r">
            Reject… <kbd className="font-mono text-xs opacity-70">r</kbd>
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={() => onDecide("pending")}
            aria-keyshortcuts="p"
          >
            Pending <kbd className="font-mono text-xs opacity-70">p</kbd>
          </Button>
        </>
      )}
      <Button size="sm" variant="outline" asChild>
        <Link to="/files" search={{ path: upload.folderPath }} aria-keyshortcuts="o">
          Open in Files <kbd className="font-mono text-xs opacity-70">o</kbd>
        </Link>
      </Button>
      <ZipButton upload={upload} />
    </div>
  );
}

/** The upload's folder as one ZIP, streamed by the data node as Files downloads a folder. */
function ZipButton({ upload }: { upload: PortalUpload }) {
  const queryClient = useQueryClient();
  if (upload.status === "uploading" || upload.status === "failed" || !upload.fileCount) return null;
  return (
    <Button
      size="sm"
      variant="outline"
      onClick={() => void download(queryClient, { kind: "folder", folder: upload.folderPath })}
    >
      <DownloadIcon aria-hidden="true" /> Download ZIP
    </Button>
  );
}
