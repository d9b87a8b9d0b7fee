import { type ReactNode, useId } from "react";
import { formatCount, formatDateTime } from "@/browser/format";
import { portalBounds } from "@/contract/portal-rules";
import { FormField } from "@/web/components/ui/form-field";
import { NativeCheckbox } from "@/web/components/ui/native-checkbox";
import { NativeSelect } from "@/web/components/ui/native-select";
import { TextAreaField, TextField } from "@/web/components/ui/text-field";
import type { PortalForm } from "../hooks/use-portal-form";
import type { ExpiryChoice } from "../state/portal-draft";
import { FieldsEditor } from "./fields-editor";
import { PathField } from "./path-field";

/* The portal form's sections, each a fieldset with a legend; "What they may send" has a file of its own. */

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="grid gap-4 border-t border-border pt-4">
      <legend className="-ml-0.5 pr-2 text-sm font-semibold">{title}</legend>
      {children}
    </fieldset>
  );
}

export function Check({
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

export function DestinationSection({ form: { portal, bind } }: { form: PortalForm }) {
  return (
    <Section title="Where uploads go">
      {portal ? (
        <p className="text-sm">
          <span className="text-muted-foreground">Uploads land under </span>
          <span className="font-medium">{portal.targetPath || "the workspace root"}</span>
          <span className="text-muted-foreground">: a portal’s folder stays as created.</span>
        </p>
      ) : (
        <PathField
          label="Uploads land in"
          hint="Each upload gets a folder of its own in here."
          placeholder="Workspace root"
          {...bind("targetPath")}
        />
      )}
      <PathField
        label="Move approved uploads to (optional)"
        hint="Approving an upload moves its folder here. Empty: it stays where it landed."
        placeholder="Stays where it landed"
        {...bind("approvedPath")}
      />
    </Section>
  );
}

export function AccessSection({ form }: { form: PortalForm }) {
  const { portal, draft, set, bind } = form;
  return (
    <Section title="Who can upload, and until when">
      <Check checked={draft.requireEmail} onChange={(requireEmail) => set({ requireEmail })}>
        Ask senders for their email address
      </Check>
      <div className="grid gap-2">
        <TextField
          label={portal?.hasPassword ? "New password (optional)" : "Password (optional)"}
          hint={
            portal?.hasPassword
              ? "Empty: the current password stays."
              : "Asked on the portal’s page before anything else."
          }
          type="password"
          autoComplete="new-password"
          disabled={draft.removePassword}
          {...bind("password")}
        />
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
          <TextField
            label="Days from now"
            hint={`${portalBounds.expiresInDays.min} to ${formatCount(portalBounds.expiresInDays.max)}`}
            inputMode="numeric"
            {...bind("expiresInDays")}
          />
        )}
      </div>
      <TextField
        label="Due (optional)"
        hint="Shown to senders as the deadline; nothing closes then."
        type="datetime-local"
        className="sm:w-64"
        {...bind("dueAt")}
      />
    </Section>
  );
}

export function QuestionsSection({ form: { draft, set, problems } }: { form: PortalForm }) {
  return (
    <Section title="Questions for the sender">
      <FieldsEditor
        fields={draft.fields}
        error={problems.fields}
        onChange={(fields) => set({ fields })}
      />
    </Section>
  );
}

export function InvitationsSection({ form: { portal, bind } }: { form: PortalForm }) {
  return (
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
          <TextAreaField
            label="Invite by email (optional)"
            hint="Addresses separated by commas or spaces; each gets the link by mail."
            rows={2}
            inputMode="email"
            autoComplete="off"
            spellCheck={false}
            {...bind("inviteEmails")}
          />
          <TextAreaField
            label="Invite by text message (optional)"
            hint="International numbers (+44 7700 900123), one a line. No SMS provider is set up: they wait in the outbox."
            rows={2}
            inputMode="tel"
            autoComplete="off"
            {...bind("invitePhones")}
          />
        </>
      )}
    </Section>
  );
}

export function OtherSection({ form: { draft, set, bind } }: { form: PortalForm }) {
  return (
    <Section title="Other">
      <Check checked={draft.notifyOnUpload} onChange={(notifyOnUpload) => set({ notifyOnUpload })}>
        Mail the workspace’s admins when an upload lands
      </Check>
      <Check
        checked={draft.notifySender.rejected}
        onChange={(rejected) => set({ notifySender: { ...draft.notifySender, rejected } })}
      >
        Mail the sender when their upload is rejected
      </Check>
      <Check
        checked={draft.notifySender.approved}
        onChange={(approved) => set({ notifySender: { ...draft.notifySender, approved } })}
      >
        Mail the sender when their upload is approved
      </Check>
      <TextField
        label="Project (optional)"
        hint="An id of your own, to group portals by project."
        className="sm:w-64"
        autoComplete="off"
        {...bind("projectId")}
      />
    </Section>
  );
}
