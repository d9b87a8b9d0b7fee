import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { formatBytes, formatCount, formatDateTime } from "@/browser/format";
import type { ReviewDecision } from "@/contract/portal-rules";
import type { PortalUpload } from "@/contract/portals";
import { Button } from "@/web/components/ui/button";
import { ProgressBar } from "@/web/components/ui/progress-bar";
import { isPreviewable } from "@/web/lib/file-preview";
import { reviewProblem, senderOf } from "../state/review-undo";
import { shownPath } from "../state/upload-paths";
import { SpecCheckBadge, UploadStatusBadge } from "./portal-badges";
import { filesSummary } from "./upload-row";
import { UploadThumb } from "./upload-thumbs";

function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-1.5">
      <h3 className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{title}</h3>
      {children}
    </section>
  );
}

const duration = (ms: number | null) => {
  if (ms === null) return null;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

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
  const who = senderOf(upload);
  const problem = reviewProblem(upload);
  const images = upload.files.filter((f) => isPreviewable(f.mime));
  const more = (upload.fileCount ?? upload.files.length) - upload.files.length;
  const answers = Object.entries(upload.fields);
  const check = upload.specCheck;
  return (
    <div className="grid gap-5 p-4 text-sm">
      <div className="grid gap-1">
        <h2 className="break-words text-base font-semibold">{who}</h2>
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
          <SpecCheckBadge check={check} />
        </div>
      </div>

      {upload.status === "uploading" && (
        <ProgressBar
          label="Received so far"
          percent={
            upload.bytesTotal ? Math.floor((upload.bytesDone / upload.bytesTotal) * 100) : null
          }
          unknownText={`${formatBytes(upload.bytesDone)} so far`}
        />
      )}

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
      </div>

      {(upload.reviewedAt || upload.reviewNote) && (
        <Part title="Review">
          {upload.reviewNote && (
            <p className="whitespace-pre-wrap break-words">“{upload.reviewNote}”</p>
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

      <Part title={`Files: ${filesSummary(upload)}`}>
        <p className="break-all text-xs text-muted-foreground">{upload.folderPath}</p>
        {images.length > 0 && (
          <div className="flex flex-wrap gap-2">
            {images.map((f) => (
              <UploadThumb
                key={f.path}
                workspaceId={workspaceId}
                path={f.path}
                className="size-24"
              />
            ))}
          </div>
        )}
        {upload.files.length > 0 ? (
          <ul className="grid gap-0.5">
            {upload.files.map((f) => (
              <li key={f.path} className="flex gap-3">
                <span className="min-w-0 flex-1 truncate" title={f.path}>
                  {shownPath(upload, f.path)}
                </span>
                <span className="shrink-0 tabular-nums text-muted-foreground">
                  {formatBytes(f.size)}
                </span>
              </li>
            ))}
            {more > 0 && (
              <li className="text-muted-foreground">and {formatCount(more)} more in the folder</li>
            )}
          </ul>
        ) : (
          <p className="text-muted-foreground">No file has landed yet.</p>
        )}
      </Part>

      {check.status !== "not_required" && (
        <Part title="Spec check">
          {check.status === "checking" ? (
            <p className="text-muted-foreground">The files are being probed…</p>
          ) : check.problems.length === 0 ? (
            <p>Every file meets the portal’s spec.</p>
          ) : (
            <ul className="grid gap-1">
              {check.problems.map((p) => (
                <li key={`${p.path}|${p.message}`} className="text-destructive-text">
                  <span className="font-medium">{shownPath(upload, p.path) || "The upload"}</span>:{" "}
                  {p.message}
                </li>
              ))}
            </ul>
          )}
          {check.files.length > 0 && (
            <ul className="grid gap-0.5 text-xs text-muted-foreground">
              {check.files.map((f) => (
                <li key={f.path} className="break-words">
                  {shownPath(upload, f.path)}:{" "}
                  {[
                    f.container,
                    f.videoCodecs.join(", ") || null,
                    f.width && f.height ? `${f.width}×${f.height}` : null,
                    duration(f.durationMs),
                  ]
                    .filter(Boolean)
                    .join(" · ") || "no media found"}
                </li>
              ))}
            </ul>
          )}
          {check.checkedAt && (
            <p className="text-xs text-muted-foreground">
              Checked {formatDateTime(check.checkedAt)}
            </p>
          )}
        </Part>
      )}
    </div>
  );
}
