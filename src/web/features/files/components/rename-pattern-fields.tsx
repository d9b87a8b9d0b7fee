import { useId } from "react";
import { FormField } from "@/web/components/ui/form-field";
import { Input } from "@/web/components/ui/input";
import { NativeCheckbox } from "@/web/components/ui/native-checkbox";
import { NativeSelect } from "@/web/components/ui/native-select";
import type { RenameForm } from "@/web/features/files/state/rename-preview";

type FieldName = keyof RenameForm;

/** The batch rename's pattern: find and replace, prefix and suffix, and the numbering. */
export function PatternFields({
  form,
  set,
  errors,
  onTextChange,
}: {
  form: RenameForm;
  set<K extends FieldName>(key: K, value: RenameForm[K]): void;
  /** The service's problems with the pattern, by field. */
  errors: Partial<Record<FieldName, string>>;
  /** A text field changed: a refusal of the form is out of date. */
  onTextChange(): void;
}) {
  const field = (name: FieldName) => errors[name];
  const text = (name: FieldName, label: string, maxLength: number, className?: string) => (
    <FormField label={label} error={field(name)} className={className}>
      {(control) => (
        <Input
          {...control}
          value={form[name] as string}
          maxLength={maxLength}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => {
            set(name, e.target.value);
            onTextChange();
          }}
        />
      )}
    </FormField>
  );
  const check = (name: FieldName, label: string) => (
    <CheckField
      label={label}
      checked={form[name] as boolean}
      onChange={(checked) => set(name, checked)}
    />
  );
  const number = (name: FieldName, label: string, min: number, max: number) => (
    <FormField label={label} error={field(name)}>
      {(control) => (
        <Input
          {...control}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          value={form[name] as string}
          onChange={(e) => set(name, e.target.value)}
        />
      )}
    </FormField>
  );

  return (
    <>
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="sr-only">Find and replace</legend>
        {text("find", "Find", 255)}
        {text("replace", "Replace with", 255)}
        <div className="flex flex-wrap gap-x-4 gap-y-2 sm:col-span-2">
          {check("regex", "Regular expression")}
          {check("ignoreCase", "Ignore case")}
          {check("includeExtension", "Include the extension")}
        </div>
        {text("prefix", "Prefix", 120)}
        {text("suffix", "Suffix", 120)}
      </fieldset>
      <fieldset className="grid gap-3">
        <legend className="sr-only">Numbering</legend>
        {check("numbering", "Add a number")}
        {form.numbering && (
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-5">
            {number("start", "Start", 0, 999_999)}
            {number("step", "Step", 1, 1000)}
            {number("padding", "Digits", 1, 8)}
            <FormField label="Position" error={field("position")}>
              {(control) => (
                <NativeSelect
                  {...control}
                  className="w-full min-w-0"
                  value={form.position}
                  onChange={(e) => set("position", e.target.value as RenameForm["position"])}
                >
                  <option value="suffix">After the name</option>
                  <option value="prefix">Before the name</option>
                  <option value="replace">Instead of the name</option>
                </NativeSelect>
              )}
            </FormField>
            {text("separator", "Separator", 8)}
          </div>
        )}
      </fieldset>
    </>
  );
}

function CheckField({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2 text-sm">
      <NativeCheckbox id={id} checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}
