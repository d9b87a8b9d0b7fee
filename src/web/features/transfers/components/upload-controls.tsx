import { BanIcon, FolderUpIcon, PauseIcon, PlayIcon, UploadIcon } from "lucide-react";
import { Button } from "@/web/components/ui/button";
import type { Upload, UploadFile } from "@/web/features/transfers/state/uploads-store";
import { cn } from "@/web/lib/cn";
import { useUploadActions } from "../use-upload-actions";
import { PickFiles } from "./pick-files";

/**
 * Pause, Resume and Cancel of one of this browser's uploads; after a reload, the pickers that
 * give it its files back.
 */
export function UploadControls({
  upload,
  label,
  pickers = true,
  className,
}: {
  upload: Upload;
  /** What the buttons act on, for their accessible names ("Pause Upload of “Shots”"). */
  label: string;
  /** The file pickers of an upload waiting for its files (a table row leaves them to a notice). */
  pickers?: boolean;
  className?: string;
}) {
  const actions = useUploadActions();
  const id = upload.transferId;
  const { status } = upload;
  if (status === "completed" || status === "failed" || status === "cancelled") return null;
  return (
    <div className={cn("flex flex-wrap items-center gap-2", className)}>
      {status === "waiting" && pickers && (
        <PickFiles what={`to resume ${label}`} onPicked={(picked) => actions.reattach(id, picked)}>
          {(open) => (
            <>
              <Button
                size="sm"
                variant="outline"
                aria-label={`Choose files to resume ${label}`}
                onClick={open.files}
              >
                <UploadIcon aria-hidden="true" />
                Choose files…
              </Button>
              <Button
                size="sm"
                variant="outline"
                aria-label={`Choose the folder to resume ${label}`}
                onClick={open.folder}
              >
                <FolderUpIcon aria-hidden="true" />
                Choose folder…
              </Button>
            </>
          )}
        </PickFiles>
      )}
      {(status === "running" || status === "reconnecting") && (
        <Button
          size="sm"
          variant="outline"
          aria-label={`Pause ${label}`}
          onClick={() => actions.pause(id)}
        >
          <PauseIcon aria-hidden="true" />
          Pause
        </Button>
      )}
      {status === "paused" && (
        <Button
          size="sm"
          variant="outline"
          aria-label={`Resume ${label}`}
          onClick={() => actions.resume(id)}
        >
          <PlayIcon aria-hidden="true" />
          Resume
        </Button>
      )}
      <Button
        size="sm"
        variant="outline"
        aria-label={`Cancel ${label}`}
        onClick={() => actions.cancel(id)}
      >
        <BanIcon aria-hidden="true" />
        Cancel
      </Button>
    </div>
  );
}

/** Pause, Resume and Cancel of one file of an upload that is going. */
export function FileControls({
  upload,
  index,
  file,
}: {
  upload: Upload;
  index: number;
  file: UploadFile;
}) {
  const actions = useUploadActions();
  const id = upload.transferId;
  const name = file.fingerprint.relativePath;
  if (upload.status === "waiting" || upload.status === "completed" || upload.status === "failed")
    return null;
  if (upload.status === "cancelled") return null;
  const going = file.status === "hashing" || file.status === "uploading";
  const stopped = file.status === "paused" || file.status === "failed";
  if (!going && !stopped && file.status !== "queued") return null;
  return (
    <div className="flex shrink-0 gap-1">
      {going && (
        <Button
          size="icon-sm"
          variant="ghost"
          aria-label={`Pause ${name}`}
          title="Pause"
          onClick={() => actions.pauseFile(id, index)}
        >
          <PauseIcon aria-hidden="true" />
        </Button>
      )}
      {stopped && (
        <Button
          size="icon-sm"
          variant="ghost"
          aria-label={`Resume ${name}`}
          title="Resume"
          onClick={() => actions.resumeFile(id, index)}
        >
          <PlayIcon aria-hidden="true" />
        </Button>
      )}
      <Button
        size="icon-sm"
        variant="ghost"
        aria-label={`Cancel ${name}`}
        title="Cancel"
        onClick={() => actions.cancelFile(id, index)}
      >
        <BanIcon aria-hidden="true" />
      </Button>
    </div>
  );
}
