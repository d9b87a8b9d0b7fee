import { type FormEvent, useId, useState } from "react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "@/web/components/ui/alert-dialog";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { describeError } from "@/web/lib/api-client";
import { formatCount } from "@/web/lib/format";

/**
 * Loaded when first needed. Typing the count (not just clicking) makes a permanent delete a
 * decision, not a reflex; the same dialog scales from one file to a whole folder's worth.
 */
export default function DeletePermanentlyDialog({
  count,
  name,
  onConfirm,
  onClose,
}: {
  count: number;
  /** The single item's name, when there is one. */
  name: string | null;
  onConfirm(): Promise<unknown>;
  onClose(): void;
}) {
  const [typed, setTyped] = useState("");
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { input: useId(), error: useId() };
  const matches = typed.trim().replace(/[,.\s]/g, "") === String(count);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!matches || pending) return;
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

  const what = name && count === 1 ? `“${name}”` : `${formatCount(count)} items`;
  return (
    <AlertDialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <AlertDialogContent>
        <form onSubmit={onSubmit} className="grid gap-4" noValidate>
          <AlertDialogTitle>Delete {what} permanently?</AlertDialogTitle>
          <AlertDialogDescription>
            They skip the trash and cannot be restored, with every kept version. Folders go with
            everything in them.
          </AlertDialogDescription>
          <div className="grid gap-2">
            <Label htmlFor={ids.input}>Type {count} to confirm</Label>
            <Input
              id={ids.input}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              inputMode="numeric"
              autoComplete="off"
              autoFocus
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? ids.error : undefined}
            />
            {problem && (
              <p id={ids.error} role="alert" className="text-sm text-destructive-text">
                {problem}
              </p>
            )}
          </div>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
            <AlertDialogAction type="submit" variant="destructive" disabled={!matches || pending}>
              {pending ? "Deleting…" : "Delete permanently"}
            </AlertDialogAction>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
