import { Link, useNavigate } from "@tanstack/react-router";
import { ChevronDownIcon, ChevronUpIcon, XIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { formatBytes, formatCount } from "@/browser/format";
import { Button } from "@/web/components/ui/button";
import { ProgressBar } from "@/web/components/ui/progress-bar";
import { formatDuration } from "@/web/features/jobs";
import {
  isUnfinished,
  type Upload,
  useUploadsStore,
} from "@/web/features/transfers/state/uploads-store";
import { toast } from "@/web/stores/toast-store";
import { describeUpload, uploadProgress } from "../transfer-model";
import { useUploadsElsewhere } from "../use-uploads-elsewhere";
import { UploadControls } from "./upload-controls";

/** Uploads shown in the tray; the monitor lists them all. */
const TRAY_MAX = 5;

const statusLine: Record<Upload["status"], string> = {
  running: "Uploading",
  reconnecting: "Reconnecting…",
  paused: "Paused",
  waiting: "Waiting for files: choose the same files or folder to resume",
  completed: "Uploaded",
  failed: "Failed",
  cancelled: "Cancelled",
};

/** Says how an upload ended, once, as it ends (the tray may be folded away). */
function useAnnounceEnds(uploads: Upload[]) {
  const navigate = useNavigate();
  const seen = useRef<Map<string, Upload["status"]> | null>(null);
  useEffect(() => {
    const before = seen.current;
    seen.current = new Map(uploads.map((u) => [u.transferId, u.status]));
    if (!before) return;
    for (const u of uploads) {
      const was = before.get(u.transferId);
      if (!was || !isUnfinished(was) || isUnfinished(u.status)) continue;
      const files = u.files.filter((f) => f.status === "done").length;
      if (u.status === "completed")
        toast({
          title: `Uploaded ${formatCount(files)} file${files === 1 ? "" : "s"} to ${u.folder ? `“${u.folder}”` : "the workspace root"}`,
          action: {
            label: "Open folder",
            onClick: () => void navigate({ to: "/files", search: { path: u.folder || undefined } }),
          },
        });
      else if (u.status === "failed")
        toast({
          title: "Upload failed",
          description: u.error ?? undefined,
          tone: "error",
          action: {
            label: "View transfer",
            onClick: () => void navigate({ to: "/transfers", search: { transfer: u.transferId } }),
          },
        });
    }
  }, [uploads, navigate]);
}

/**
 * This browser's uploads on every page but the monitor: their progress and controls, folded to
 * a line on request. Finished ones stay until cleared, each linking to its folder.
 */
export function UploadTray({ workspaceId }: { workspaceId: string }) {
  const all = useUploadsStore((s) => s.uploads);
  const remove = useUploadsStore((s) => s.remove);
  const [open, setOpen] = useState(true);
  const mine = Object.values(all).filter((u) => u.workspaceId === workspaceId);
  const elsewhere = useUploadsElsewhere(mine);
  // Another tab runs those, and shows them in its own tray.
  const uploads = mine
    .filter((u) => !elsewhere.has(u.transferId))
    .sort((a, b) => b.createdAt - a.createdAt);
  useAnnounceEnds(uploads);
  if (uploads.length === 0) return null;
  const going = uploads.filter((u) => isUnfinished(u.status));
  const finished = uploads.filter((u) => !isUnfinished(u.status));
  const summary =
    going.length > 0
      ? `${formatCount(going.length)} upload${going.length === 1 ? "" : "s"} in progress`
      : `${formatCount(finished.length)} upload${finished.length === 1 ? "" : "s"} finished`;

  return (
    <section
      aria-label="Uploads"
      className="fixed bottom-3 left-3 z-40 w-[min(22rem,calc(100vw-1.5rem))] rounded-lg border border-border bg-card text-card-foreground shadow-lg md:left-[15rem]"
    >
      <div className="flex items-center gap-2 px-3 py-2">
        <h2 className="min-w-0 flex-1 truncate text-sm font-medium">{summary}</h2>
        <Link
          to="/transfers"
          className="text-xs text-link underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          Monitor
        </Link>
        <Button
          size="icon-sm"
          variant="ghost"
          aria-label={open ? "Fold the uploads" : "Show the uploads"}
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          {open ? <ChevronDownIcon aria-hidden="true" /> : <ChevronUpIcon aria-hidden="true" />}
        </Button>
      </div>
      {open && (
        <ul className="max-h-[50vh] divide-y divide-border overflow-auto border-t border-border">
          {uploads.slice(0, TRAY_MAX).map((u) => {
            const label = describeUpload(u);
            const p = uploadProgress(u);
            return (
              <li key={u.transferId} className="grid gap-1.5 px-3 py-2 text-sm">
                <div className="flex min-w-0 items-center gap-2">
                  <span className="min-w-0 flex-1 truncate font-medium">{label}</span>
                  {!isUnfinished(u.status) && (
                    <Button
                      size="icon-sm"
                      variant="ghost"
                      aria-label={`Clear ${label}`}
                      title="Clear"
                      onClick={() => remove(u.transferId)}
                    >
                      <XIcon aria-hidden="true" />
                    </Button>
                  )}
                </div>
                <ProgressBar
                  unknownText="Size unknown"
                  percent={p.percent}
                  label={`Progress of ${label}`}
                  stopped={u.status === "failed" || u.status === "cancelled"}
                />
                <p className="text-xs text-muted-foreground">
                  {statusLine[u.status]} · {formatCount(p.filesDone)} of{" "}
                  {formatCount(u.files.length)} files · {formatBytes(p.bytesDone)} of{" "}
                  {formatBytes(u.bytesTotal)}
                  {u.status === "running" && u.bytesPerSecond
                    ? ` · ${formatBytes(Math.round(u.bytesPerSecond))}/s`
                    : ""}
                  {u.status === "running" && p.etaSeconds !== null
                    ? ` · ${formatDuration(p.etaSeconds)} left`
                    : ""}
                </p>
                {u.error && <p className="text-xs text-destructive-text">{u.error}</p>}
                {u.status === "completed" ? (
                  <Link
                    to="/files"
                    search={{ path: u.folder || undefined }}
                    className="text-xs text-link underline-offset-4 hover:underline"
                  >
                    Open {u.folder ? `“${u.folder}”` : "the workspace root"}
                  </Link>
                ) : (
                  <UploadControls upload={u} label={label} />
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
