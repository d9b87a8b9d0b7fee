/** @jsxImportSource preact */
import type { ComponentChildren } from "preact";
import type { PublicPortal } from "@/contract/portal-public";
import {
  PORTAL_FIELD_VALUE_MAX,
  PORTAL_SENDER_MESSAGE_MAX,
  PORTAL_SENDER_NAME_MAX,
} from "@/contract/portal-rules";
import { EMAIL_MAX } from "@/contract/rules";
import type { FormKey, SenderValues } from "./portal-model";

/** The input's id for a form key: `portal-email`, `portal-field-{key}`. */
export const inputId = (key: FormKey) =>
  key.startsWith("field:") ? `portal-field-${key.slice(6)}` : `portal-${key}`;

function Field({
  id,
  label,
  required,
  error,
  children,
}: {
  id: string;
  label: string;
  required: boolean;
  error: string | undefined;
  children: ComponentChildren;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>
        {label} <span className="hint">{required ? "(required)" : "(optional)"}</span>
      </label>
      {children}
      {error && (
        <p id={`${id}-error`} className="error field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** `aria-invalid` and the error's id for an input that has one. */
const invalid = (id: string, error: string | undefined) =>
  error ? { "aria-invalid": true, "aria-describedby": `${id}-error` } : {};

/** Who sends (name, email, message) and the portal's own fields, each with its error. */
export function SenderFields({
  portal,
  values,
  errors,
  onValue,
}: {
  portal: PublicPortal;
  values: SenderValues;
  errors: ReadonlyMap<FormKey, string>;
  onValue: (key: FormKey, value: string) => void;
}) {
  return (
    <>
      <fieldset>
        <legend>About you</legend>
        <Field id="portal-name" label="Name" required={false} error={errors.get("name")}>
          <input
            id="portal-name"
            value={values.name}
            maxLength={PORTAL_SENDER_NAME_MAX}
            autoComplete="name"
            onInput={(e) => onValue("name", e.currentTarget.value)}
            {...invalid("portal-name", errors.get("name"))}
          />
        </Field>
        <Field
          id="portal-email"
          label="Email"
          required={portal.requireEmail}
          error={errors.get("email")}
        >
          <input
            id="portal-email"
            type="email"
            value={values.email}
            maxLength={EMAIL_MAX}
            autoComplete="email"
            required={portal.requireEmail}
            onInput={(e) => onValue("email", e.currentTarget.value)}
            {...invalid("portal-email", errors.get("email"))}
          />
        </Field>
        <Field id="portal-message" label="Message" required={false} error={errors.get("message")}>
          <textarea
            id="portal-message"
            value={values.message}
            rows={3}
            maxLength={PORTAL_SENDER_MESSAGE_MAX}
            onInput={(e) => onValue("message", e.currentTarget.value)}
            {...invalid("portal-message", errors.get("message"))}
          />
        </Field>
      </fieldset>

      {portal.fields.length > 0 && (
        <fieldset>
          <legend>Details</legend>
          {portal.fields.map((f) => {
            const key: FormKey = `field:${f.key}`;
            const id = inputId(key);
            return (
              <Field
                key={f.key}
                id={id}
                label={f.label}
                required={f.required}
                error={errors.get(key)}
              >
                <input
                  id={id}
                  value={values.fields[f.key] ?? ""}
                  maxLength={PORTAL_FIELD_VALUE_MAX}
                  required={f.required}
                  onInput={(e) => onValue(key, e.currentTarget.value)}
                  {...invalid(id, errors.get(key))}
                />
              </Field>
            );
          })}
        </fieldset>
      )}
    </>
  );
}
