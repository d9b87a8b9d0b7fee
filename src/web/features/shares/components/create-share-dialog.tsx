import { Link } from "@tanstack/react-router";
import { useId, useState } from "react";
import { formatCount } from "@/browser/format";
import { SHARE_EXPIRES_DAYS_DEFAULT } from "@/contract/rules";
import type { CreatedShare } from "@/contract/shares";
import { CopyButton } from "@/web/components/copy-button";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogHeading } from "@/web/components/ui/dialog";
import { FormDialogFooter } from "@/web/components/ui/form-dialog-footer";
import { Input } from "@/web/components/ui/input";
import { NativeCheckbox } from "@/web/components/ui/native-checkbox";
import { TextAreaField, TextField } from "@/web/components/ui/text-field";
import { useAsyncSubmit } from "@/web/lib/use-async-submit";
import { useCreateShareMutation } from "../api/create-share";
import {
  opensForAnyone,
  parseRecipients,
  type ShareDraft,
  type ShareField,
  shareBody,
  shareFields,
  validateShareDraft,
} from "../share-form";

/** Share the selected paths: the form, then the links (shown this once) and the share's page. */
export default function CreateShareDialog({
  paths,
  onClose,
}: {
  paths: string[];
  onClose(): void;
}) {
  const [created, setCreated] = useState<CreatedShare | null>(null);
  const form = useShareForm(paths, setCreated);
  return (
    <Dialog open onOpenChange={(open) => !open && !form.pending && onClose()}>
      <DialogContent className="sm:max-w-lg">
        {created ? (
          <ShareCreated created={created} onClose={onClose} />
        ) : (
          <ShareForm paths={paths} form={form} onClose={onClose} />
        )}
      </DialogContent>
    </Dialog>
  );
}

/** The draft and its submit; `bind(member)` gives a text field its value, error and setter. */
function useShareForm(paths: string[], onCreated: (share: CreatedShare) => void) {
  const create = useCreateShareMutation();
  const [draft, setDraft] = useState<ShareDraft>({
    title: "",
    message: "",
    recipients: "",
    expiresInDays: String(SHARE_EXPIRES_DAYS_DEFAULT),
    maxDownloads: "",
    password: "",
    openLink: false,
  });
  const submit = useAsyncSubmit({
    fields: shareFields,
    validate: () => validateShareDraft(draft),
    run: () => create.mutateAsync(shareBody(paths, draft)),
    onSuccess: onCreated,
  });
  const bind = (member: ShareField) => ({
    value: draft[member],
    error: submit.problems[member],
    onValueChange: (value: string) => setDraft((d) => ({ ...d, [member]: value })),
  });
  const setOpenLink = (openLink: boolean) => setDraft((d) => ({ ...d, openLink }));
  return { ...submit, bind, draft, setOpenLink };
}

function ShareForm({
  paths,
  form: { bind, problems, pending, onSubmit, draft, setOpenLink },
  onClose,
}: {
  paths: string[];
  form: ReturnType<typeof useShareForm>;
  onClose(): void;
}) {
  const what = paths.length === 1 ? `“${paths[0]}”` : `${formatCount(paths.length)} items`;
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <DialogHeading title={<>Share {what}</>}>
        Recipients download through a link; the share keeps the files as they are now.
      </DialogHeading>
      <TextField label="Title (optional)" {...bind("title")} autoFocus />
      <TextAreaField label="Message (optional)" rows={3} {...bind("message")} />
      <TextField
        label="Recipients (optional)"
        hint="Email addresses, separated by commas or spaces; each gets a personal link."
        type="text"
        inputMode="email"
        autoComplete="off"
        {...bind("recipients")}
      />
      <OpenLinkOption draft={draft} onChange={setOpenLink} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Expires after (days)" inputMode="numeric" {...bind("expiresInDays")} />
        <TextField
          label="Download limit (optional)"
          hint="Empty: no limit"
          inputMode="numeric"
          {...bind("maxDownloads")}
        />
      </div>
      <TextField
        label="Password (optional)"
        hint="Asked on the recipient page"
        type="password"
        autoComplete="new-password"
        {...bind("password")}
      />
      <FormDialogFooter
        error={problems.form}
        pending={pending}
        onCancel={onClose}
        label={"Create share"}
        busyLabel="Creating…"
      />
    </form>
  );
}

/**
 * The link for anyone: with recipients it is off unless ticked (its downloads are anonymous);
 * without recipients it is the share's only link, so it shows ticked and fixed.
 */
function OpenLinkOption({
  draft,
  onChange,
}: {
  draft: ShareDraft;
  onChange(openLink: boolean): void;
}) {
  const id = useId();
  const alone = parseRecipients(draft.recipients).length === 0;
  return (
    <div className="grid gap-1 text-sm">
      <div className="flex items-center gap-2">
        <NativeCheckbox
          id={id}
          checked={opensForAnyone(draft)}
          disabled={alone}
          aria-describedby={`${id}-hint`}
          onChange={(e) => onChange(e.target.checked)}
        />
        <label htmlFor={id}>Also create a link anyone can use</label>
      </div>
      <p id={`${id}-hint`} className="text-muted-foreground">
        {alone
          ? "Without recipients, the share's one link is for anyone who has it."
          : "Off: only the recipients' personal links open the share, so every download is theirs."}
      </p>
    </div>
  );
}

function ShareCreated({ created, onClose }: { created: CreatedShare; onClose(): void }) {
  return (
    <div className="grid gap-4">
      <DialogHeading title="Share created">
        Copy the links now: personal links are shown only here (and mailed to each recipient).
      </DialogHeading>
      <ul className="grid gap-2 text-sm">
        {created.url && <LinkRow label="Link for anyone" url={created.url} />}
        {created.recipientLinks.map((r) => (
          <LinkRow key={r.email} label={r.email} url={r.url} />
        ))}
      </ul>
      <DialogFooter>
        <Button variant="outline" asChild>
          <Link to="/shares" search={{ share: created.id }} onClick={onClose}>
            Open the share
          </Link>
        </Button>
        <Button onClick={onClose}>Done</Button>
      </DialogFooter>
    </div>
  );
}

function LinkRow({ label, url }: { label: string; url: string }) {
  return (
    <li className="grid gap-1">
      <span className="text-muted-foreground">{label}</span>
      <span className="flex items-center gap-2">
        <Input readOnly value={url} aria-label={`Link: ${label}`} className="min-w-0 flex-1" />
        <CopyButton text={url} label={`Copy the link for ${label}`} />
      </span>
    </li>
  );
}
