import { useState } from "react";
import { formatDateTime } from "@/browser/format";
import { SHARE_EXPIRES_DAYS_DEFAULT, SHARE_EXPIRES_DAYS_MAX } from "@/contract/rules";
import type { Share } from "@/contract/shares";
import { Dialog, DialogContent, DialogHeading } from "@/web/components/ui/dialog";
import { FormDialogFooter } from "@/web/components/ui/form-dialog-footer";
import { TextField } from "@/web/components/ui/text-field";
import { useAsyncSubmit } from "@/web/lib/use-async-submit";
import { useUpdateShareMutation } from "../api/update-share";

const fields = ["expiresInDays"] as const;

/** A new expiry, counted from now (an expired share becomes active again). */
export function ExtendDialog({ share, onClose }: { share: Share; onClose(): void }) {
  const update = useUpdateShareMutation();
  return (
    <ExpiryDaysDialog
      title={`Extend “${share.title}”`}
      description={`It expires ${formatDateTime(share.expiresAt)}. The new expiry counts from now.`}
      run={(expiresInDays) => update.mutateAsync({ id: share.id, body: { expiresInDays } })}
      onClose={onClose}
    />
  );
}

/** Asks for a number of days from now and runs the extension with it; one share or many. */
export function ExpiryDaysDialog({
  title,
  description,
  run,
  onClose,
}: {
  title: string;
  description: string;
  run(expiresInDays: number): Promise<unknown>;
  onClose(): void;
}) {
  const [days, setDays] = useState(String(SHARE_EXPIRES_DAYS_DEFAULT));
  const submit = useAsyncSubmit({
    fields,
    validate: () => {
      const n = Number(days);
      return {
        expiresInDays:
          /^\d+$/.test(days.trim()) && n >= 1 && n <= SHARE_EXPIRES_DAYS_MAX
            ? undefined
            : `A whole number of days, 1 to ${SHARE_EXPIRES_DAYS_MAX}.`,
      };
    },
    run: () => run(Number(days)),
    onSuccess: onClose,
  });
  const { problems, pending } = submit;
  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="sm:max-w-md">
        <form onSubmit={submit.onSubmit} className="grid gap-4" noValidate>
          <DialogHeading title={title}>{description}</DialogHeading>
          <TextField
            label="Expires in (days from now)"
            error={problems.expiresInDays}
            inputMode="numeric"
            value={days}
            onValueChange={setDays}
            autoFocus
          />
          <FormDialogFooter
            error={problems.form}
            pending={pending}
            onCancel={onClose}
            label={"Extend"}
            busyLabel="Extending…"
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
