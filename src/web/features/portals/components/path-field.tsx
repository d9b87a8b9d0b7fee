import { FormField } from "@/web/components/ui/form-field";
import { Input } from "@/web/components/ui/input";

/**
 * A folder of the workspace, typed as its path and checked with the contract's path rule. Not
 * Files' folder picker: sharing it moved modules of the Files page into chunks of their own,
 * +2.7 KB gzip on Files' first load.
 */
export function PathField({
  label,
  hint,
  placeholder,
  value,
  error,
  onChange,
}: {
  label: string;
  hint?: string;
  placeholder: string;
  value: string;
  error?: string;
  onChange(path: string): void;
}) {
  return (
    <FormField label={label} hint={hint} error={error}>
      {(control) => (
        <Input
          {...control}
          value={value}
          placeholder={placeholder}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </FormField>
  );
}
