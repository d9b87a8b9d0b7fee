import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { formatCount } from "@/browser/format";
import type { Portal } from "@/contract/portals";
import { CopyButton } from "@/web/components/copy-button";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogHeading } from "@/web/components/ui/dialog";
import { FormDialogFooter } from "@/web/components/ui/form-dialog-footer";
import { Input } from "@/web/components/ui/input";
import { TextAreaField, TextField } from "@/web/components/ui/text-field";
import { toast } from "@/web/stores/toast-store";
import { type PortalForm, usePortalForm } from "../hooks/use-portal-form";
import { type PortalDraft, parseEmails, parsePhones } from "../state/portal-draft";
import {
  AccessSection,
  DestinationSection,
  InvitationsSection,
  OtherSection,
  QuestionsSection,
} from "./portal-form-sections";
import { RulesSection } from "./portal-rules-section";

/**
 * Create a portal (no `portal`) or edit one: every member the contract takes, each checked
 * against its bounds before sending, and the service's refusals shown beside their controls.
 */
export function PortalFormDialog({ portal, onClose }: { portal?: Portal; onClose(): void }) {
  const [created, setCreated] = useState<Portal | null>(null);
  const form = usePortalForm(portal, (saved) => {
    if (!portal && saved) return setCreated(saved);
    if (saved) toast({ title: `Saved “${saved.title}”` });
    onClose();
  });
  return (
    <Dialog open onOpenChange={(open) => !open && !form.pending && onClose()}>
      <DialogContent className="sm:max-w-2xl">
        {created ? (
          <PortalCreated created={created} draft={form.draft} onClose={onClose} />
        ) : (
          <PortalFormBody form={form} onClose={onClose} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function PortalFormBody({ form, onClose }: { form: PortalForm; onClose(): void }) {
  const { portal, bind, problems, pending } = form;
  return (
    <form ref={form.formRef} onSubmit={form.onSubmit} className="grid gap-4" noValidate>
      <DialogHeading title={portal ? `Edit “${portal.title}”` : "New portal"}>
        A page where clients upload files to you, each upload in a folder of its own, for you to
        review.
      </DialogHeading>
      <TextField
        label="Title"
        placeholder="Dailies for the Harbour edit"
        autoFocus
        {...bind("title")}
      />
      <TextAreaField
        label="Message (optional)"
        hint="Shown to senders above the upload area."
        rows={3}
        {...bind("message")}
      />
      <DestinationSection form={form} />
      <AccessSection form={form} />
      <RulesSection form={form} />
      <QuestionsSection form={form} />
      <InvitationsSection form={form} />
      <OtherSection form={form} />
      <FormDialogFooter
        error={problems.form}
        pending={pending}
        onCancel={onClose}
        label={portal ? "Save changes" : "Create portal"}
        busyLabel="Saving…"
      />
    </form>
  );
}

/** The created portal's link, shown once, and who was invited. */
function PortalCreated({
  created,
  draft,
  onClose,
}: {
  created: Portal;
  draft: PortalDraft;
  onClose(): void;
}) {
  const invitedEmails = parseEmails(draft.inviteEmails).length;
  const invitedPhones = parsePhones(draft.invitePhones).length;
  return (
    <div className="grid gap-4">
      <DialogHeading title="Portal created">
        Send this link to whoever should upload to “{created.title}”.
        {invitedEmails > 0 &&
          ` ${formatCount(invitedEmails)} ${invitedEmails === 1 ? "person was" : "people were"} invited by mail.`}
        {invitedPhones > 0 &&
          " Phone numbers wait in the outbox: this service sends no text messages."}
      </DialogHeading>
      <div className="flex items-center gap-2">
        <Input
          readOnly
          value={created.url}
          aria-label="The portal's link"
          className="min-w-0 flex-1"
          onFocus={(e) => e.target.select()}
        />
        <CopyButton text={created.url} label="Copy the portal's link" />
      </div>
      <DialogFooter>
        <Button variant="outline" asChild>
          <Link to="/portals" search={{ portal: created.id }} onClick={onClose}>
            Open the portal
          </Link>
        </Button>
        <Button onClick={onClose}>Done</Button>
      </DialogFooter>
    </div>
  );
}
