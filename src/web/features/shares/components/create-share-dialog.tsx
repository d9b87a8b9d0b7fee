import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { formatCount } from "@/browser/format";
import { SHARE_EXPIRES_DAYS_DEFAULT } from "@/contract/rules";
import type { CreatedShare } from "@/contract/shares";
import { CopyButton } from "@/web/components/copy-button";
import { Button } from "@/web/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/web/components/ui/dialog";
import { FormError, FormField } from "@/web/components/ui/form-field";
import { Input } from "@/web/components/ui/input";
import { Textarea } from "@/web/components/ui/textarea";
import { useAsyncSubmit } from "@/web/lib/use-async-submit";
import { useCreateShareMutation } from "../api/create-share";
import { type ShareDraft, shareBody, shareFields, validateShareDraft } from "../share-form";

/** Share the selected paths: the form, then the links (shown this once) and the share's page. */
export default function CreateShareDialog({
  paths,
  onClose,
}: {
  paths: string[];
  onClose(): void;
}) {
  const create = useCreateShareMutation();
  const [created, setCreated] = useState<CreatedShare | null>(null);
  const [draft, setDraft] = useState<ShareDraft>({
    title: "",
    message: "",
    recipients: "",
    expiresInDays: String(SHARE_EXPIRES_DAYS_DEFAULT),
    maxDownloads: "",
    password: "",
  });
  const set = (change: Partial<ShareDraft>) => setDraft((d) => ({ ...d, ...change }));
  const submit = useAsyncSubmit({
    fields: shareFields,
    validate: () => validateShareDraft(draft),
    run: () => create.mutateAsync(shareBody(paths, draft)),
    onSuccess: setCreated,
  });
  const { problems, pending } = submit;
  const what = paths.length === 1 ? `“${paths[0]}”` : `${formatCount(paths.length)} items`;

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="sm:max-w-lg">
        {created ? (
          <div className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Share created</DialogTitle>
              <DialogDescription>
                Copy the links now: personal links are shown only here (and mailed to each
                recipient).
              </DialogDescription>
            </DialogHeader>
            <ul className="grid gap-2 text-sm">
              <LinkRow label="Link for anyone" url={created.url} />
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
        ) : (
          <form onSubmit={submit.onSubmit} className="grid gap-4" noValidate>
            <DialogHeader>
              <DialogTitle>Share {what}</DialogTitle>
              <DialogDescription>
                Recipients download through a link; the share keeps the files as they are now.
              </DialogDescription>
            </DialogHeader>
            <FormField label="Title (optional)" error={problems.title}>
              {(control) => (
                <Input
                  {...control}
                  value={draft.title}
                  onChange={(e) => set({ title: e.target.value })}
                  autoFocus
                />
              )}
            </FormField>
            <FormField label="Message (optional)" error={problems.message}>
              {(control) => (
                <Textarea
                  {...control}
                  rows={3}
                  value={draft.message}
                  onChange={(e) => set({ message: e.target.value })}
                />
              )}
            </FormField>
            <FormField
              label="Recipients (optional)"
              hint="Email addresses, separated by commas or spaces; each gets a personal link."
              error={problems.recipients}
            >
              {(control) => (
                <Input
                  {...control}
                  type="text"
                  inputMode="email"
                  autoComplete="off"
                  value={draft.recipients}
                  onChange={(e) => set({ recipients: e.target.value })}
                />
              )}
            </FormField>
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField label="Expires after (days)" error={problems.expiresInDays}>
                {(control) => (
                  <Input
                    {...control}
                    inputMode="numeric"
                    value={draft.expiresInDays}
                    onChange={(e) => set({ expiresInDays: e.target.value })}
                  />
                )}
              </FormField>
              <FormField
                label="Download limit (optional)"
                hint="Empty: no limit"
                error={problems.maxDownloads}
              >
                {(control) => (
                  <Input
                    {...control}
                    inputMode="numeric"
                    value={draft.maxDownloads}
                    onChange={(e) => set({ maxDownloads: e.target.value })}
                  />
                )}
              </FormField>
            </div>
            <FormField
              label="Password (optional)"
              hint="Asked on the recipient page"
              error={problems.password}
            >
              {(control) => (
                <Input
                  {...control}
                  type="password"
                  autoComplete="new-password"
                  value={draft.password}
                  onChange={(e) => set({ password: e.target.value })}
                />
              )}
            </FormField>
            <FormError>{problems.form}</FormError>
            <DialogFooter>
              <Button variant="outline" onClick={onClose} disabled={pending}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                {pending ? "Creating…" : "Create share"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
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
