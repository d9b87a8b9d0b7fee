import { PlusIcon, Trash2Icon } from "lucide-react";
import { useId } from "react";
import { PORTAL_FIELDS_MAX } from "@/contract/portal-rules";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { NativeCheckbox } from "@/web/components/ui/native-checkbox";
import { type FieldDraft, keyFromLabel, newFieldDraft } from "../state/portal-draft";
import { fieldRowProblems } from "../state/portal-form-check";

/**
 * The questions a sender answers beside their files: a label, the key the value is stored
 * under (made from the label until typed by hand), and whether an answer is required.
 */
export function FieldsEditor({
  fields,
  error,
  onChange,
}: {
  fields: FieldDraft[];
  /** The form's message for the fields; rows are marked only once it is shown. */
  error?: string;
  onChange(fields: FieldDraft[]): void;
}) {
  const id = useId();
  const rows = error ? fieldRowProblems(fields) : [];
  const update = (index: number, change: Partial<FieldDraft>) =>
    onChange(fields.map((f, i) => (i === index ? { ...f, ...change } : f)));
  return (
    <div className="grid gap-2">
      {fields.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          None: senders give their files (and their name and address) only.
        </p>
      ) : (
        <ol className="grid gap-2">
          {fields.map((f, i) => {
            const n = i + 1;
            return (
              <li
                key={f.id}
                className="grid gap-2 rounded-md border border-border p-2 sm:grid-cols-[1fr_10rem_auto_auto] sm:items-center"
              >
                <Input
                  aria-label={`Field ${n}: label`}
                  placeholder="Label, e.g. Shot number"
                  value={f.label}
                  aria-invalid={rows[i]?.label ? true : undefined}
                  onChange={(e) =>
                    update(i, {
                      label: e.target.value,
                      ...(f.keyEdited ? {} : { key: keyFromLabel(e.target.value) }),
                    })
                  }
                />
                <Input
                  aria-label={`Field ${n}: key`}
                  placeholder="key"
                  className="font-mono"
                  value={f.key}
                  spellCheck={false}
                  autoComplete="off"
                  aria-invalid={rows[i]?.key ? true : undefined}
                  onChange={(e) => update(i, { key: e.target.value, keyEdited: true })}
                />
                <span className="flex items-center gap-2 text-sm">
                  <NativeCheckbox
                    id={`${id}-${f.id}-required`}
                    checked={f.required}
                    onChange={(e) => update(i, { required: e.target.checked })}
                  />
                  <label htmlFor={`${id}-${f.id}-required`}>
                    Required<span className="sr-only"> (field {n})</span>
                  </label>
                </span>
                <Button
                  variant="ghost"
                  size="icon-sm"
                  aria-label={`Remove field ${n}${f.label ? ` (${f.label})` : ""}`}
                  onClick={() => onChange(fields.filter((_, j) => j !== i))}
                >
                  <Trash2Icon aria-hidden="true" />
                </Button>
              </li>
            );
          })}
        </ol>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive-text">
          {error}
        </p>
      )}
      <div>
        <Button
          variant="outline"
          size="sm"
          disabled={fields.length >= PORTAL_FIELDS_MAX}
          onClick={() => onChange([...fields, newFieldDraft()])}
        >
          <PlusIcon aria-hidden="true" />
          Add a question
        </Button>
        {fields.length >= PORTAL_FIELDS_MAX && (
          <span className="ml-2 text-xs text-muted-foreground">{PORTAL_FIELDS_MAX} at most.</span>
        )}
      </div>
    </div>
  );
}
