/** @jsxImportSource preact */
import { useMemo, useState } from "preact/hooks";
import { formatCount } from "@/browser/format";
import type { PublicPortal } from "@/contract/portal-public";
import { FilePickers } from "./file-pickers";
import { loadUploader } from "./load-uploader";
import { anyName, useNameMatcher } from "./name-pattern";
import type { PickResult } from "./picked";
import { PickedList, ROWS_PER_STEP } from "./picked-list";
import type { PortalApi } from "./portal-api";
import {
  addPicked,
  checkSelection,
  type FormKey,
  type Picked,
  rulesSummary,
  type SelectionCheck,
  type SenderValues,
  specSummary,
  uploadBody,
  validateSender,
} from "./portal-model";
import { inputId, SenderFields } from "./sender-fields";
import { type StoredUpload, saveUpload } from "./session";
import { pickedNote, startFailure, storedUploadOf } from "./start-upload";

/** What the sender typed and picked: kept by the page, so a password asked again loses nothing. */
export interface Draft {
  values: SenderValues;
  picked: Picked[];
}

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

/** The removed row's button is gone: focus the next row's, or the picker once none is left. */
const refocus = (row: number) =>
  setTimeout(() => {
    const buttons = document.querySelectorAll<HTMLButtonElement>(".selection .rows button");
    (
      buttons[Math.min(row, buttons.length - 1)] ?? document.getElementById("portal-pick-choose")
    )?.focus();
  });

function focusFirst(keys: Iterable<FormKey>) {
  for (const key of keys) {
    document.getElementById(inputId(key))?.focus();
    return;
  }
}

/** What stands between the selection and Upload, or "" when nothing does. */
function selectionHint(count: number, check: SelectionCheck) {
  if (count === 0) return "Choose at least one file.";
  if (check.files.size > 0)
    return `Remove the ${check.files.size === 1 ? "file" : `${formatCount(check.files.size)} files`} this portal does not accept.`;
  return check.upload?.message ?? "";
}

/** The sender's values with the one under `key` (`name`, `field:client`…) changed. */
const withValue = (v: SenderValues, key: FormKey, value: string): SenderValues =>
  key.startsWith("field:")
    ? { ...v, fields: { ...v.fields, [key.slice(6)]: value } }
    : { ...v, [key]: value };

const uploadLabel = (count: number) =>
  `Upload ${count > 0 ? `${formatCount(count)} file${count === 1 ? "" : "s"}` : "files"}`;

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
    onDraft({ ...draft, values: withValue(values, key, value) });
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
    setNote(pickedNote(added.length, refused, skipped));
  }

  const remove = (path: string, row: number) => {
    onDraft({ ...draft, picked: picked.filter((p) => p.path !== path) });
    setNote(`Removed ${path}.`);
    refocus(row);
  };

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
      const stored = storedUploadOf(started, picked);
      saveUpload(api.slug, stored);
      await onStarted(
        stored,
        picked.map((p) => p.file),
      );
    } catch (err) {
      const failure = startFailure(err, picked);
      if (failure === "refused") return onRefused();
      if (failure.form) setErrors(failure.form);
      if (failure.files) setFileErrors(failure.files);
      setOther(failure.other);
      if (failure.form) focusFirst(failure.form.keys());
    } finally {
      setBusy(false);
    }
  }

  const hint = busy ? "Starting the upload…" : selectionHint(picked.length, check);

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="form-title">
      <h2 id="form-title">Send files</h2>
      <Rules portal={portal} />

      <SenderFields portal={portal} values={values} errors={errors} onValue={setValue} />

      <fieldset>
        <legend>Files</legend>
        <FilePickers id="portal-pick" onPicked={pick} />
        <p className="meta" aria-live="polite">
          {note}
        </p>
        {picked.length > 0 && (
          <PickedList
            picked={picked}
            check={check}
            fileErrors={fileErrors}
            shown={shown}
            onShowMore={() => setShown((n) => n + ROWS_PER_STEP)}
            onRemove={remove}
            onRemoveAll={() => {
              onDraft({ ...draft, picked: [] });
              setNote("Removed every file.");
              refocus(0);
            }}
          />
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
          {busy ? "Starting…" : uploadLabel(picked.length)}
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
