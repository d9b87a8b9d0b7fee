/** @jsxImportSource preact */
import type { ComponentChildren } from "preact";
import { useMemo, useState } from "preact/hooks";
import { ApiError } from "@/browser/api-error";
import { formatBytes, formatCount } from "@/browser/format";
import type { PublicPortal } from "@/contract/portal-public";
import {
  PORTAL_FIELD_VALUE_MAX,
  PORTAL_SENDER_MESSAGE_MAX,
  PORTAL_SENDER_NAME_MAX,
} from "@/contract/portal-rules";
import { baseName, EMAIL_MAX, parentOf } from "@/contract/rules";
import { FilePickers } from "./file-pickers";
import { loadUploader } from "./load-uploader";
import { anyName, useNameMatcher } from "./name-pattern";
import type { PickResult } from "./picked";
import type { PortalApi } from "./portal-api";
import {
  addPicked,
  checkSelection,
  type FormKey,
  type Picked,
  placeIssues,
  rulesSummary,
  type SenderValues,
  specSummary,
  uploadBody,
  validateSender,
} from "./portal-model";
import { type StoredUpload, saveUpload } from "./session";

/** What the sender typed and picked: kept by the page, so a password asked again loses nothing. */
export interface Draft {
  values: SenderValues;
  picked: Picked[];
}

/** Rows drawn at first and per "Show more": 10,000 picked files need not all be drawn to send. */
const ROWS_PER_STEP = 200;

const inputId = (key: FormKey) =>
  key.startsWith("field:") ? `portal-field-${key.slice(6)}` : `portal-${key}`;

/** What the portal accepts, before anyone picks a file. */
function Rules({ portal }: { portal: PublicPortal }) {
  const spec = specSummary(portal.spec);
  return (
    <section className="rules" aria-labelledby="rules-title">
      <h3 id="rules-title">What this portal accepts</h3>
      <p>{rulesSummary(portal).join(" · ")}</p>
      {spec && <p>Videos: {spec}</p>}
    </section>
  );
}

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

export function UploadForm({
  api,
  portal,
  draft,
  onDraft,
  onStarted,
  onRefused,
}: {
  api: PortalApi;
  portal: PublicPortal;
  draft: Draft;
  onDraft: (d: Draft) => void;
  onStarted: (stored: StoredUpload, files: File[]) => Promise<void>;
  /** The portal closed or wants its password again: the page reads it anew. */
  onRefused: () => void;
}) {
  const [errors, setErrors] = useState<Map<FormKey, string>>(new Map());
  const [fileErrors, setFileErrors] = useState<Map<string, string>>(new Map());
  const [other, setOther] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState("");
  const [shown, setShown] = useState(ROWS_PER_STEP);
  const { values, picked } = draft;
  const matches = useNameMatcher(portal.rules.namePattern);
  const check = useMemo(() => {
    const files = picked.map((p) => ({ path: p.path, size: p.file.size }));
    // Until RE2 has loaded no name is refused, and Upload waits for the real check.
    const c = checkSelection(portal, files, matches ?? anyName);
    return matches ? c : { ...c, ok: false };
  }, [portal, picked, matches]);

  const setValue = (key: FormKey, value: string) => {
    const next = key.startsWith("field:")
      ? { ...values, fields: { ...values.fields, [key.slice(6)]: value } }
      : { ...values, [key]: value };
    onDraft({ ...draft, values: next });
    if (errors.has(key)) {
      const rest = new Map(errors);
      rest.delete(key);
      setErrors(rest);
    }
  };

  function pick({ picked: added, skipped }: PickResult) {
    if (added.length === 0 && skipped === 0) return;
    // The sending code arrives while the sender fills in the rest.
    void loadUploader().catch(() => {});
    const next = addPicked(picked, added);
    onDraft({ ...draft, picked: next });
    setFileErrors(new Map());
    setOther([]);
    const refused = checkSelection(
      portal,
      added.map((p) => ({ path: p.path, size: p.file.size })),
      matches ?? anyName,
    ).files.size;
    setNote(
      [
        `Added ${formatCount(added.length)} file${added.length === 1 ? "" : "s"}.`,
        refused > 0 ? `${formatCount(refused)} cannot be sent here: see below.` : "",
        skipped > 0
          ? `${formatCount(skipped)} system file${skipped === 1 ? "" : "s"} (like .DS_Store) left out.`
          : "",
      ]
        .filter(Boolean)
        .join(" "),
    );
  }

  /** The removed row's button is gone: focus the next row's, or the picker once none is left. */
  const refocus = (row: number) =>
    setTimeout(() => {
      const buttons = document.querySelectorAll<HTMLButtonElement>(".selection .rows button");
      (
        buttons[Math.min(row, buttons.length - 1)] ?? document.getElementById("portal-pick-choose")
      )?.focus();
    });

  const remove = (path: string, row: number) => {
    onDraft({ ...draft, picked: picked.filter((p) => p.path !== path) });
    setNote(`Removed ${path}.`);
    refocus(row);
  };

  function focusFirst(keys: Iterable<FormKey>) {
    for (const key of keys) {
      document.getElementById(inputId(key))?.focus();
      return;
    }
  }

  async function submit(e: SubmitEvent) {
    e.preventDefault();
    const found = validateSender(portal, values);
    setErrors(found);
    setOther([]);
    if (found.size > 0) return focusFirst(found.keys());
    if (!check.ok || busy) return;
    setBusy(true);
    try {
      const files = picked.map((p) => ({ path: p.path, size: p.file.size }));
      const started = await api.startUpload(uploadBody(values, files));
      const stored: StoredUpload = {
        uploadId: started.uploadId,
        spec: started.transferSpec,
        files: picked.map((p) => ({
          path: p.path,
          size: p.file.size,
          lastModified: p.file.lastModified,
          done: false,
          sha256: null,
        })),
        startedAt: Date.now(),
      };
      saveUpload(api.slug, stored);
      await onStarted(
        stored,
        picked.map((p) => p.file),
      );
    } catch (err) {
      if (!(err instanceof ApiError)) {
        setOther([`The upload could not start: ${(err as Error).message}. Check the connection.`]);
      } else if (err.code === "validation_failed" || err.code === "path_rejected") {
        const placed = placeIssues(err.fieldIssues, picked);
        setErrors(placed.form);
        setFileErrors(placed.files);
        setOther(
          placed.other.length || placed.form.size || placed.files.size
            ? placed.other
            : [err.message],
        );
        focusFirst(placed.form.keys());
      } else if (err.status === 403 && err.reason !== null) {
        onRefused();
      } else if (err.code === "rate_limited") {
        const seconds = Number(err.details?.retryAfterSeconds ?? 0);
        setOther([
          `Too many attempts from this connection. Try again${seconds ? ` in ${seconds} s` : " shortly"}.`,
        ]);
      } else {
        setOther([err.message]);
      }
    } finally {
      setBusy(false);
    }
  }

  // Refused files first: they are what the sender has to act on.
  const rows = useMemo(
    () =>
      [...picked].sort((a, b) => Number(check.files.has(b.path)) - Number(check.files.has(a.path))),
    [picked, check],
  );
  const hint = busy
    ? "Starting the upload…"
    : picked.length === 0
      ? "Choose at least one file."
      : check.files.size > 0
        ? `Remove the ${check.files.size === 1 ? "file" : `${formatCount(check.files.size)} files`} this portal does not accept.`
        : (check.upload?.message ?? "");

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="form-title">
      <h2 id="form-title">Send files</h2>
      <Rules portal={portal} />

      <fieldset>
        <legend>About you</legend>
        <Field id="portal-name" label="Name" required={false} error={errors.get("name")}>
          <input
            id="portal-name"
            value={values.name}
            maxLength={PORTAL_SENDER_NAME_MAX}
            autoComplete="name"
            onInput={(e) => setValue("name", e.currentTarget.value)}
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
            onInput={(e) => setValue("email", e.currentTarget.value)}
            {...invalid("portal-email", errors.get("email"))}
          />
        </Field>
        <Field id="portal-message" label="Message" required={false} error={errors.get("message")}>
          <textarea
            id="portal-message"
            value={values.message}
            rows={3}
            maxLength={PORTAL_SENDER_MESSAGE_MAX}
            onInput={(e) => setValue("message", e.currentTarget.value)}
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
                  onInput={(e) => setValue(key, e.currentTarget.value)}
                  {...invalid(id, errors.get(key))}
                />
              </Field>
            );
          })}
        </fieldset>
      )}

      <fieldset>
        <legend>Files</legend>
        <FilePickers id="portal-pick" onPicked={pick} />
        <p className="meta" aria-live="polite">
          {note}
        </p>
        {picked.length > 0 && (
          <div className="selection">
            <div className="bar">
              <span className="meta">
                {formatCount(picked.length)} file{picked.length === 1 ? "" : "s"} ·{" "}
                {formatBytes(check.bytes)}
              </span>
              <button
                type="button"
                onClick={() => {
                  onDraft({ ...draft, picked: [] });
                  setNote("Removed every file.");
                  refocus(0);
                }}
              >
                Remove all
              </button>
            </div>
            {check.upload && (
              <p className="error" data-testid="selection-problem">
                {check.upload.message}
              </p>
            )}
            <ul className="rows">
              {rows.slice(0, shown).map((p, row) => {
                const problem = check.files.get(p.path)?.message ?? fileErrors.get(p.path);
                return (
                  <li key={p.path} className={problem ? "refused" : undefined}>
                    <div className="row-main">
                      <span className="path">{baseName(p.path)}</span>
                      {p.path.includes("/") && <span className="folder">{parentOf(p.path)}</span>}
                      {problem && <span className="error state">{problem}</span>}
                    </div>
                    <span className="size">{formatBytes(p.file.size)}</span>
                    <button
                      type="button"
                      aria-label={`Remove ${p.path}`}
                      onClick={() => remove(p.path, row)}
                    >
                      Remove
                    </button>
                  </li>
                );
              })}
            </ul>
            {shown < rows.length && (
              <button type="button" onClick={() => setShown((n) => n + ROWS_PER_STEP)}>
                Show {Math.min(ROWS_PER_STEP, rows.length - shown)} more ({formatCount(shown)} of{" "}
                {formatCount(rows.length)} shown)
              </button>
            )}
          </div>
        )}
      </fieldset>

      {other.length > 0 && (
        <div className="error" role="alert">
          {other.map((m) => (
            <p key={m}>{m}</p>
          ))}
        </div>
      )}
      <div className="submit">
        <button
          type="submit"
          className="primary"
          disabled={!check.ok || busy}
          aria-describedby={hint ? "upload-hint" : undefined}
        >
          {busy
            ? "Starting…"
            : `Upload ${picked.length > 0 ? `${formatCount(picked.length)} file${picked.length === 1 ? "" : "s"}` : "files"}`}
        </button>
        {hint && (
          <p id="upload-hint" className="meta">
            {hint}
          </p>
        )}
      </div>
    </form>
  );
}
