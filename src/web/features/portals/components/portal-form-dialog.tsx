import { Link } from "@tanstack/react-router";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { formatCount, formatDateTime } from "@/browser/format";
import { PORTAL_EXPIRES_DAYS_MAX } from "@/contract/portal-rules";
import type { Portal } from "@/contract/portals";
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
import { NativeCheckbox } from "@/web/components/ui/native-checkbox";
import { NativeSelect } from "@/web/components/ui/native-select";
import { Textarea } from "@/web/components/ui/textarea";
import { useAsyncSubmit } from "@/web/lib/use-async-submit";
import { toast } from "@/web/stores/toast-store";
import { useCreatePortalMutation } from "../api/create-portal";
import { useUpdatePortalMutation } from "../api/update-portal";
import {
  createPortalBody,
  draftFromPortal,
  type ExpiryChoice,
  emptyPortalDraft,
  type PortalDraft,
  parseEmails,
  parsePhones,
  portalFormFields,
  type SizeUnit,
  updatePortalBody,
  validatePortalDraft,
  withFormFields,
} from "../state/portal-form";
import { FieldsEditor } from "./fields-editor";
import { PathField } from "./path-field";

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="grid gap-4 border-t border-border pt-4">
      <legend className="-ml-0.5 pr-2 text-sm font-semibold">{title}</legend>
      {children}
    </fieldset>
  );
}

function Check({
  checked,
  onChange,
  children,
  hint,
}: {
  checked: boolean;
  onChange(checked: boolean): void;
  children: ReactNode;
  hint?: string;
}) {
  const id = useId();
  return (
    <div className="grid gap-1">
      <div className="flex items-center gap-2 text-sm">
        <NativeCheckbox
          id={id}
          checked={checked}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onChange={(e) => onChange(e.target.checked)}
        />
        <label htmlFor={id}>{children}</label>
      </div>
      {hint && (
        <p id={`${id}-hint`} className="pl-6 text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}

/**
 * Create a portal (no `portal`) or edit one: every member the contract takes, each checked
 * against its bounds before sending, and the service's refusals shown beside their controls.
 */
export function PortalFormDialog({ portal, onClose }: { portal?: Portal; onClose(): void }) {
  const create = useCreatePortalMutation();
  const update = useUpdatePortalMutation();
  const [created, setCreated] = useState<Portal | null>(null);
  const [draft, setDraft] = useState<PortalDraft>(() =>
    portal ? draftFromPortal(portal) : emptyPortalDraft(),
  );
  const set = (change: Partial<PortalDraft>) => setDraft((d) => ({ ...d, ...change }));
  const submit = useAsyncSubmit({
    fields: portalFormFields,
    validate: () => validatePortalDraft(draft, Date.now(), portal),
    run: async (): Promise<Portal | null> => {
      try {
        if (!portal) return await create.mutateAsync(createPortalBody(draft));
        const body = updatePortalBody(draft, portal);
        if (Object.keys(body).length === 0) return null;
        return await update.mutateAsync({ id: portal.id, body });
      } catch (error) {
        throw withFormFields(error);
      }
    },
    onSuccess: (saved) => {
      if (!portal && saved) return setCreated(saved);
      if (saved) toast({ title: `Saved “${saved.title}”` });
      onClose();
    },
  });
  const { problems, pending } = submit;
  // A long form: the first field refused is brought into view and focused, not left below.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (Object.entries(problems).some(([k, v]) => v && k !== "form"))
      formRef.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [problems]);
  const invitedEmails = parseEmails(draft.inviteEmails).length;
  const invitedPhones = parsePhones(draft.invitePhones).length;

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="sm:max-w-2xl">
        {created ? (
          <div className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Portal created</DialogTitle>
              <DialogDescription>
                Send this link to whoever should upload to “{created.title}”.
                {invitedEmails > 0 &&
                  ` ${formatCount(invitedEmails)} ${invitedEmails === 1 ? "person was" : "people were"} invited by mail.`}
                {invitedPhones > 0 &&
                  " Phone numbers wait in the outbox: this service sends no text messages."}
              </DialogDescription>
            </DialogHeader>
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
        ) : (
          <form ref={formRef} onSubmit={submit.onSubmit} className="grid gap-4" noValidate>
            <DialogHeader>
              <DialogTitle>{portal ? `Edit “${portal.title}”` : "New portal"}</DialogTitle>
              <DialogDescription>
                A page where clients upload files to you, each upload in a folder of its own, for
                you to review.
              </DialogDescription>
            </DialogHeader>
            <FormField label="Title" error={problems.title}>
              {(control) => (
                <Input
                  {...control}
                  value={draft.title}
                  placeholder="Dailies for the Harbour edit"
                  onChange={(e) => set({ title: e.target.value })}
                  autoFocus
                />
              )}
            </FormField>
            <FormField
              label="Message (optional)"
              hint="Shown to senders above the upload area."
              error={problems.message}
            >
              {(control) => (
                <Textarea
                  {...control}
                  rows={3}
                  value={draft.message}
                  onChange={(e) => set({ message: e.target.value })}
                />
              )}
            </FormField>

            <Section title="Where uploads go">
              {portal ? (
                <p className="text-sm">
                  <span className="text-muted-foreground">Uploads land under </span>
                  <span className="font-medium">{portal.targetPath || "the workspace root"}</span>
                  <span className="text-muted-foreground">
                    : a portal’s folder stays as created.
                  </span>
                </p>
              ) : (
                <PathField
                  label="Uploads land in"
                  hint="Each upload gets a folder of its own in here."
                  placeholder="Workspace root"
                  value={draft.targetPath}
                  error={problems.targetPath}
                  onChange={(targetPath) => set({ targetPath })}
                />
              )}
              <PathField
                label="Move approved uploads to (optional)"
                hint="Approving an upload moves its folder here. Empty: it stays where it landed."
                placeholder="Stays where it landed"
                value={draft.approvedPath}
                error={problems.approvedPath}
                onChange={(approvedPath) => set({ approvedPath })}
              />
            </Section>

            <Section title="Who can upload, and until when">
              <Check
                checked={draft.requireEmail}
                onChange={(requireEmail) => set({ requireEmail })}
              >
                Ask senders for their email address
              </Check>
              <div className="grid gap-2">
                <FormField
                  label={portal?.hasPassword ? "New password (optional)" : "Password (optional)"}
                  hint={
                    portal?.hasPassword
                      ? "Empty: the current password stays."
                      : "Asked on the portal’s page before anything else."
                  }
                  error={problems.password}
                >
                  {(control) => (
                    <Input
                      {...control}
                      type="password"
                      autoComplete="new-password"
                      value={draft.password}
                      disabled={draft.removePassword}
                      onChange={(e) => set({ password: e.target.value })}
                    />
                  )}
                </FormField>
                {portal?.hasPassword && (
                  <Check
                    checked={draft.removePassword}
                    onChange={(removePassword) => set({ removePassword, password: "" })}
                  >
                    Remove the password
                  </Check>
                )}
              </div>
              <div className="grid gap-4 sm:grid-cols-2">
                <FormField
                  label="Expiry"
                  hint={
                    portal?.expiresAt
                      ? `Now: ${portal.expired ? "expired" : "expires"} ${formatDateTime(portal.expiresAt)}`
                      : portal
                        ? "Now: never expires"
                        : undefined
                  }
                >
                  {(control) => (
                    <NativeSelect
                      {...control}
                      value={draft.expiry}
                      onChange={(e) => set({ expiry: e.target.value as ExpiryChoice })}
                    >
                      {portal && <option value="keep">Keep as it is</option>}
                      <option value="never">Never expires</option>
                      <option value="days">Expires after a number of days</option>
                    </NativeSelect>
                  )}
                </FormField>
                {draft.expiry === "days" && (
                  <FormField
                    label="Days from now"
                    hint={`1 to ${formatCount(PORTAL_EXPIRES_DAYS_MAX)}`}
                    error={problems.expiresInDays}
                  >
                    {(control) => (
                      <Input
                        {...control}
                        inputMode="numeric"
                        value={draft.expiresInDays}
                        onChange={(e) => set({ expiresInDays: e.target.value })}
                      />
                    )}
                  </FormField>
                )}
              </div>
              <FormField
                label="Due (optional)"
                hint="Shown to senders as the deadline; nothing closes then."
                error={problems.dueAt}
              >
                {(control) => (
                  <Input
                    {...control}
                    type="datetime-local"
                    className="sm:w-64"
                    value={draft.dueAt}
                    onChange={(e) => set({ dueAt: e.target.value })}
                  />
                )}
              </FormField>
            </Section>

            <Section title="What they may send">
              <div className="grid gap-4 sm:grid-cols-2">
                <SizeField
                  value={draft.maxSize}
                  unit={draft.maxSizeUnit}
                  error={problems.maxSize}
                  onChange={(maxSize, maxSizeUnit) => set({ maxSize, maxSizeUnit })}
                />
                <FormField
                  label="Files per upload (optional)"
                  hint="Empty: any number."
                  error={problems.maxFiles}
                >
                  {(control) => (
                    <Input
                      {...control}
                      inputMode="numeric"
                      value={draft.maxFiles}
                      onChange={(e) => set({ maxFiles: e.target.value })}
                    />
                  )}
                </FormField>
              </div>
              <FormField
                label="Accepted extensions (optional)"
                hint="Separated by commas or spaces, e.g. mov, mxf, wav. Empty: any file."
                error={problems.allowedExtensions}
              >
                {(control) => (
                  <Input
                    {...control}
                    value={draft.allowedExtensions}
                    autoComplete="off"
                    spellCheck={false}
                    onChange={(e) => set({ allowedExtensions: e.target.value })}
                  />
                )}
              </FormField>
              <FormField
                label="File names must match (optional)"
                hint="A regular expression (RE2) each file’s name must match as a whole, e.g. ^A\d{3}_.*$"
                error={problems.namePattern}
              >
                {(control) => (
                  <Input
                    {...control}
                    className="font-mono"
                    value={draft.namePattern}
                    autoComplete="off"
                    spellCheck={false}
                    onChange={(e) => set({ namePattern: e.target.value })}
                  />
                )}
              </FormField>
              <Check
                checked={draft.specEnabled}
                onChange={(specEnabled) => set({ specEnabled })}
                hint="Each video is probed once it lands; reviewers see whether it passed."
              >
                Check videos against a delivery spec
              </Check>
              {draft.specEnabled && (
                <div className="grid gap-4 rounded-md border border-border p-3">
                  <FormField label="Spec name" error={problems.specName}>
                    {(control) => (
                      <Input
                        {...control}
                        placeholder="ProRes 422 HQ in MOV"
                        value={draft.specName}
                        onChange={(e) => set({ specName: e.target.value })}
                      />
                    )}
                  </FormField>
                  <div className="grid gap-4 sm:grid-cols-2">
                    <FormField
                      label="Containers"
                      hint="As ffprobe names them: mov, mp4, mxf, matroska. Empty: any."
                      error={problems.specContainers}
                    >
                      {(control) => (
                        <Input
                          {...control}
                          spellCheck={false}
                          value={draft.specContainers}
                          onChange={(e) => set({ specContainers: e.target.value })}
                        />
                      )}
                    </FormField>
                    <FormField
                      label="Video codecs"
                      hint="As ffprobe names them: prores, h264, hevc. Empty: any."
                      error={problems.specVideoCodecs}
                    >
                      {(control) => (
                        <Input
                          {...control}
                          spellCheck={false}
                          value={draft.specVideoCodecs}
                          onChange={(e) => set({ specVideoCodecs: e.target.value })}
                        />
                      )}
                    </FormField>
                  </div>
                </div>
              )}
            </Section>

            <Section title="Questions for the sender">
              <FieldsEditor
                fields={draft.fields}
                error={problems.fields}
                onChange={(fields) => set({ fields })}
              />
            </Section>

            <Section title="Invitations">
              {portal ? (
                <p className="text-sm text-muted-foreground">
                  {portal.invites.emails.length + portal.invites.phones.length === 0
                    ? "Nobody was invited when the portal was created."
                    : `Invited when created: ${[...portal.invites.emails, ...portal.invites.phones].join(", ")}.`}{" "}
                  Invitations go out only when a portal is created: send its link to anyone else.
                </p>
              ) : (
                <>
                  <FormField
                    label="Invite by email (optional)"
                    hint="Addresses separated by commas or spaces; each gets the link by mail."
                    error={problems.inviteEmails}
                  >
                    {(control) => (
                      <Textarea
                        {...control}
                        rows={2}
                        inputMode="email"
                        autoComplete="off"
                        spellCheck={false}
                        value={draft.inviteEmails}
                        onChange={(e) => set({ inviteEmails: e.target.value })}
                      />
                    )}
                  </FormField>
                  <FormField
                    label="Invite by text message (optional)"
                    hint="International numbers (+44 7700 900123), one a line. No SMS provider is set up: they wait in the outbox."
                    error={problems.invitePhones}
                  >
                    {(control) => (
                      <Textarea
                        {...control}
                        rows={2}
                        inputMode="tel"
                        autoComplete="off"
                        value={draft.invitePhones}
                        onChange={(e) => set({ invitePhones: e.target.value })}
                      />
                    )}
                  </FormField>
                </>
              )}
            </Section>

            <Section title="Other">
              <Check
                checked={draft.notifyOnUpload}
                onChange={(notifyOnUpload) => set({ notifyOnUpload })}
              >
                Mail the workspace’s admins when an upload lands
              </Check>
              <FormField
                label="Project (optional)"
                hint="An id of your own, to group portals by project."
                error={problems.projectId}
              >
                {(control) => (
                  <Input
                    {...control}
                    className="sm:w-64"
                    autoComplete="off"
                    value={draft.projectId}
                    onChange={(e) => set({ projectId: e.target.value })}
                  />
                )}
              </FormField>
            </Section>

            <FormError>{problems.form}</FormError>
            <DialogFooter>
              <Button variant="outline" onClick={onClose} disabled={pending}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                {pending ? "Saving…" : portal ? "Save changes" : "Create portal"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

function SizeField({
  value,
  unit,
  error,
  onChange,
}: {
  value: string;
  unit: SizeUnit;
  error?: string;
  onChange(value: string, unit: SizeUnit): void;
}) {
  return (
    <FormField
      label="Largest upload (optional)"
      hint="All its files together. Empty: no limit."
      error={error}
    >
      {(control) => (
        <div className="flex gap-2">
          <Input
            {...control}
            inputMode="decimal"
            value={value}
            onChange={(e) => onChange(e.target.value, unit)}
          />
          <NativeSelect
            aria-label="Unit"
            value={unit}
            onChange={(e) => onChange(value, e.target.value as SizeUnit)}
          >
            <option value="MB">MB</option>
            <option value="GB">GB</option>
          </NativeSelect>
        </div>
      )}
    </FormField>
  );
}
