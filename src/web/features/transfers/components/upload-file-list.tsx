import { formatBytes, formatCount } from "@/browser/format";
import { ProgressBar } from "@/web/components/ui/progress-bar";
import type { Upload, UploadFileStatus } from "@/web/features/transfers/state/uploads-store";
import { FileControls } from "./upload-controls";

/** Files listed one by one; a folder of thousands says how many more there are. */
const FILES_SHOWN = 200;

const fileStatus: Record<UploadFileStatus, string> = {
  queued: "Queued",
  hashing: "Checking…",
  uploading: "Uploading",
  paused: "Paused",
  done: "Uploaded",
  failed: "Failed",
  cancelled: "Cancelled",
};

/** Each file of one of this browser's uploads, with its own progress and controls. */
export function UploadFileList({ upload }: { upload: Upload }) {
  const shown = upload.files.slice(0, FILES_SHOWN);
  return (
    <div className="grid gap-1">
      <h3 className="text-sm font-medium">Files</h3>
      <ul className="divide-y divide-border text-sm">
        {shown.map((f, i) => {
          const percent =
            f.fingerprint.size === 0
              ? f.status === "done"
                ? 100
                : 0
              : Math.min(100, Math.floor((f.bytesDone / f.fingerprint.size) * 100));
          return (
            <li key={f.destination} className="grid gap-1 py-2">
              <div className="flex min-w-0 items-center gap-2">
                <span className="min-w-0 flex-1 truncate" title={f.destination}>
                  {f.fingerprint.relativePath}
                </span>
                <FileControls upload={upload} index={i} file={f} />
              </div>
              <ProgressBar
                unknownText="Size unknown"
                percent={percent}
                label={`Progress of ${f.fingerprint.relativePath}`}
                stopped={f.status === "failed" || f.status === "cancelled"}
              />
              <p className="text-xs text-muted-foreground">
                {fileStatus[f.status]} · {formatBytes(f.bytesDone)} of{" "}
                {formatBytes(f.fingerprint.size)}
                {f.error && <span className="text-destructive-text"> · {f.error}</span>}
              </p>
            </li>
          );
        })}
      </ul>
      {upload.files.length > FILES_SHOWN && (
        <p className="text-xs text-muted-foreground">
          and {formatCount(upload.files.length - FILES_SHOWN)} more files
        </p>
      )}
    </div>
  );
}
