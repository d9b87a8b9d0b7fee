import { useId, useState } from "react";
import type { Share } from "@/contract/shares";
import { Dialog, DialogContent, DialogHeading } from "@/web/components/ui/dialog";
import { FormDialogFooter } from "@/web/components/ui/form-dialog-footer";
import { NativeCheckbox } from "@/web/components/ui/native-checkbox";
import { useAsyncSubmit } from "@/web/lib/use-async-submit";
import { toast } from "@/web/stores/toast-store";
import { useResendShareMutation } from "../api/resend-share";

const fields = ["recipients"] as const;

/** Mails the personal links again, to every recipient or to those ticked. */
export function ResendDialog({ share, onClose }: { share: Share; onClose(): void }) {
  const resend = useResendShareMutation();
  const idPrefix = useId();
  const [chosen, setChosen] = useState<Set<string>>(
    () => new Set(share.recipients.map((r) => r.email)),
  );
  const all = chosen.size === share.recipients.length;
  const submit = useAsyncSubmit({
    fields,
    validate: () => ({ form: chosen.size === 0 ? "Choose at least one recipient." : undefined }),
    // Everyone ticked: the request says "all", which also reaches anyone added meanwhile.
    run: () => resend.mutateAsync({ id: share.id, recipients: all ? undefined : [...chosen] }),
    onSuccess: ({ messages }) => {
      toast({
        title: `Sent the link again to ${messages.length === 1 ? messages[0]!.to : `${messages.length} recipients`}`,
      });
      onClose();
    },
  });
  const { problems, pending } = submit;
  const toggle = (email: string) =>
    setChosen((s) => {
      const next = new Set(s);
      if (!next.delete(email)) next.add(email);
      return next;
    });
  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="sm:max-w-md">
        <form onSubmit={submit.onSubmit} className="grid gap-4" noValidate>
          <DialogHeading title="Send the link again">
            Each recipient gets their personal link by mail.
          </DialogHeading>
          <fieldset className="grid max-h-64 gap-2 overflow-auto">
            <legend className="sr-only">Recipients</legend>
            {share.recipients.map((r) => (
              <div key={r.id} className="flex items-center gap-2 text-sm">
                <NativeCheckbox
                  id={`${idPrefix}-${r.id}`}
                  checked={chosen.has(r.email)}
                  onChange={() => toggle(r.email)}
                />
                <label htmlFor={`${idPrefix}-${r.id}`} className="min-w-0 truncate">
                  {r.email}
                </label>
              </div>
            ))}
          </fieldset>
          <FormDialogFooter
            error={problems.form ?? problems.recipients}
            pending={pending}
            onCancel={onClose}
            label={all ? "Send to all" : `Send to ${chosen.size}`}
            busyLabel="Sending…"
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
