import { useRef, useState } from "react";
import { describeError } from "@/web/lib/api-client";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "./ui/alert-dialog";

/** Asks before an action that cannot be undone; stays open (with the reason) if it fails. */
export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  pendingLabel = "Working…",
  destructive = false,
  confirmFirst = false,
  onConfirm,
  onClose,
}: {
  title: string;
  description: string;
  confirmLabel: string;
  /** Shown on the button while the action runs. */
  pendingLabel?: string;
  destructive?: boolean;
  /**
   * The confirm button has focus at first, so Enter confirms (a question a key press raised,
   * answered from the keyboard); otherwise Cancel has it. Esc cancels either way.
   */
  confirmFirst?: boolean;
  onConfirm(): Promise<unknown>;
  onClose(): void;
}) {
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const confirm = async () => {
    setPending(true);
    setProblem(null);
    try {
      await onConfirm();
      onClose();
    } catch (error) {
      setProblem(describeError(error));
      setPending(false);
    }
  };
  return (
    <AlertDialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <AlertDialogContent
        onOpenAutoFocus={
          confirmFirst
            ? (event) => {
                event.preventDefault();
                confirmRef.current?.focus();
              }
            : undefined
        }
      >
        <AlertDialogTitle>{title}</AlertDialogTitle>
        <AlertDialogDescription>{description}</AlertDialogDescription>
        {problem && (
          <p role="alert" className="text-sm text-destructive-text">
            {problem}
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <AlertDialogAction
            ref={confirmRef}
            variant={destructive ? "destructive" : "default"}
            disabled={pending}
            onClick={confirm}
          >
            {pending ? pendingLabel : confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
