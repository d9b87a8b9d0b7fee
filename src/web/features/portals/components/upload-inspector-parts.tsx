import { type ReactNode, useState } from "react";
import { formatCount, formatDateTime } from "@/browser/format";
import type { PortalUpload } from "@/contract/portals";
import { isPreviewable } from "@/web/lib/file-preview";
import { shownPath } from "../state/upload-paths";
import { duration, UploadFilesTable } from "./upload-files-table";
import { canPreview, UploadPreview } from "./upload-preview";
import { filesSummary } from "./upload-row";
import { UploadThumb } from "./upload-thumbs";

/* The inspector's parts: a titled section; the files; the spec check with what the probe found. */

export function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-1.5">
      <h3 className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{title}</h3>
      {children}
    </section>
  );
}

export function FilesPart({ workspaceId, upload }: { workspaceId: string; upload: PortalUpload }) {
  const images = upload.files.filter((f) => isPreviewable(f.mime));
  const more = (upload.fileCount ?? upload.files.length) - upload.files.length;
  // The chosen file while it is one of this upload's, else the first it has to show.
  const [chosen, choose] = useState<string | null>(null);
  const shown =
    upload.files.find((f) => f.path === chosen && canPreview(f)) ?? upload.files.find(canPreview);
  return (
    <Part title={`Files: ${filesSummary(upload)}`}>
      <p className="break-all text-xs text-muted-foreground">{upload.folderPath}</p>
      {images.length > 0 && (
        <div className="flex flex-wrap gap-2">
          {images.map((f) => (
            <UploadThumb key={f.path} workspaceId={workspaceId} path={f.path} className="size-24" />
          ))}
        </div>
      )}
      {upload.files.length > 0 ? (
        <>
          {shown && <UploadPreview workspaceId={workspaceId} upload={upload} file={shown} />}
          <UploadFilesTable upload={upload} chosen={shown?.path ?? null} onChoose={choose} />
          {more > 0 && (
            <p className="text-muted-foreground">and {formatCount(more)} more in the folder</p>
          )}
        </>
      ) : (
        <p className="text-muted-foreground">No file has landed yet.</p>
      )}
    </Part>
  );
}

export function SpecCheckPart({ upload }: { upload: PortalUpload }) {
  const check = upload.specCheck;
  if (check.status === "not_required") return null;
  return (
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
        <p className="text-xs text-muted-foreground">Checked {formatDateTime(check.checkedAt)}</p>
      )}
    </Part>
  );
}
