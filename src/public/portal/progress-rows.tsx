/** @jsxImportSource preact */
import { useState } from "preact/hooks";
import { formatBytes, formatCount } from "@/browser/format";
import { baseName, parentOf } from "@/contract/rules";
import type { FileView } from "./upload-view";
import type { PortalUploadRun } from "./uploader";

/** Rows drawn at first and per "Show more". */
const ROWS_PER_STEP = 200;

export const percent = (done: number, total: number) =>
  total > 0 ? Math.floor((done / total) * 100) : 100;

function fileText(f: FileView) {
  switch (f.status) {
    case "missing":
      return "Waiting for the file: choose it again";
    case "queued":
      return f.sent > 0 ? `Paused at ${percent(f.sent, f.size)}%` : "Waiting";
    case "hashing":
      return `Preparing ${percent(f.hashed, f.size)}%`;
    case "uploading":
      return `${formatBytes(f.sent)} of ${formatBytes(f.size)} · ${percent(f.sent, f.size)}%`;
    case "done":
      return "Sent";
    case "failed":
      return `Failed: ${f.error ?? "the upload failed"}`;
  }
}

/** Every file of the upload with its progress; a failed one can be tried again. */
export function ProgressRows({
  run,
  files,
  sending,
}: {
  run: PortalUploadRun;
  files: readonly FileView[];
  sending: boolean;
}) {
  const [shown, setShown] = useState(ROWS_PER_STEP);
  return (
    <>
      <ul className="rows">
        {files.slice(0, shown).map((f, i) => (
          <li key={f.path} className={`progress-row ${f.status}`}>
            <div className="row-main">
              <span className="path">{baseName(f.path)}</span>
              {f.path.includes("/") && <span className="folder">{parentOf(f.path)}</span>}
              <progress
                value={f.status === "hashing" ? 0 : f.sent}
                max={f.size || 1}
                aria-label={f.path}
                aria-valuetext={fileText(f)}
              />
              <span className={`state ${f.status === "failed" ? "error" : ""}`}>{fileText(f)}</span>
            </div>
            <span className="size">{formatBytes(f.size)}</span>
            {f.status === "failed" && sending ? (
              <button type="button" aria-label={`Retry ${f.path}`} onClick={() => run.retry(i)}>
                Retry
              </button>
            ) : (
              <span />
            )}
          </li>
        ))}
      </ul>
      {shown < files.length && (
        <button type="button" onClick={() => setShown((n) => n + ROWS_PER_STEP)}>
          Show {Math.min(ROWS_PER_STEP, files.length - shown)} more ({formatCount(shown)} of{" "}
          {formatCount(files.length)} shown)
        </button>
      )}
    </>
  );
}
