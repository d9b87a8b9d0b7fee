import { useState } from "react";
import { formatCount } from "@/browser/format";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "@/web/components/ui/alert-dialog";
import { FormField } from "@/web/components/ui/form-field";
import { Input } from "@/web/components/ui/input";
import { useAsyncSubmit } from "@/web/lib/use-async-submit";

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
  const matches = typed.trim().replace(/[,.\s]/g, "") === String(count);
  const { onSubmit, pending, problems } = useAsyncSubmit({
    fields: [],
    run: () => (matches ? onConfirm().then(onClose) : Promise.resolve()),
  });

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
          <FormField label={`Type ${count} to confirm`} error={problems.form}>
            {(control) => (
              <Input
                {...control}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                inputMode="numeric"
                autoComplete="off"
                autoFocus
              />
            )}
          </FormField>
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
