import type { ReactNode } from "react";
import { Button } from "./button";
import { DialogFooter } from "./dialog";
import { FormError } from "./form-field";

/**
 * A dialog form's end: the error no field owns, Cancel, and the submit button, which says what
 * it is doing while the request runs (`busyLabel`); both wait while it does.
 */
export function FormDialogFooter({
  error,
  pending,
  onCancel,
  label,
  busyLabel,
}: {
  error: ReactNode;
  pending: boolean;
  onCancel(): void;
  label: ReactNode;
  busyLabel: ReactNode;
}) {
  return (
    <>
      <FormError>{error}</FormError>
      <DialogFooter>
        <Button variant="outline" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? busyLabel : label}
        </Button>
      </DialogFooter>
    </>
  );
}
