import { useState } from "react";
import type { CreateOperationBody } from "@/contract/operations";
import { parentOf } from "@/contract/rules";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogHeading } from "@/web/components/ui/dialog";
import { FormError } from "@/web/components/ui/form-field";
import { useAsyncSubmit } from "@/web/lib/use-async-submit";
import { useSessionStore } from "@/web/stores/session-store";
import { isWithin } from "../hooks/use-drag-move";
import { describeMany } from "../hooks/use-trash-with-undo";
import { FolderPicker } from "./folder-picker";

/**
 * Loaded when first opened: "Move to…" and "Copy to…", the keyboard's way to what dragging onto
 * a folder does. `onStart` starts the job (and hands a conflict to the conflict dialog); a
 * refusal it throws is shown here.
 */
export default function MoveCopyDialog({
  kind,
  paths,
  folder,
  onStart,
  onClose,
}: {
  kind: CreateOperationBody["kind"];
  paths: string[];
  /** The folder the items are in: where browsing starts. */
  folder: string;
  onStart(body: CreateOperationBody): Promise<unknown>;
  onClose(): void;
}) {
  const workspaceId = useSessionStore((s) => s.session?.workspaceId ?? "");
  const [destination, setDestination] = useState(folder);
  const verb = kind === "move" ? "Move" : "Copy";
  const intoItself = paths.some((p) => isWithin(destination, p));
  const nowhere = kind === "move" && paths.every((p) => parentOf(p) === destination);
  const { onSubmit, pending, problems } = useAsyncSubmit({
    fields: [],
    validate: () => ({
      form: intoItself
        ? "A folder cannot go inside itself."
        : nowhere
          ? "The items are already in this folder."
          : undefined,
    }),
    run: () => onStart({ kind, paths, destination }),
  });

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent>
        <form onSubmit={onSubmit} className="grid min-w-0 gap-4" noValidate>
          <DialogHeading
            title={
              <>
                {verb} {describeMany(paths)} to…
              </>
            }
          >
            Open the folder to {kind} into, then choose {verb} here. It runs on the service as a
            job.
          </DialogHeading>
          <FolderPicker
            workspaceId={workspaceId}
            folder={destination}
            onFolderChange={setDestination}
            blocked={paths}
          />
          <FormError>{problems.form}</FormError>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={pending} onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending || intoItself || nowhere}>
              {pending ? "Starting…" : `${verb} here`}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
