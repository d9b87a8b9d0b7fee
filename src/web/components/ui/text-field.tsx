import type { ComponentProps, ReactNode } from "react";
import { FormField } from "./form-field";
import { Input } from "./input";
import { Textarea } from "./textarea";

/** What a text field takes besides its control's own attributes. */
interface TextFieldProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null | undefined;
  /** The field's wrapper (label, control, hint, error); `className` styles the control. */
  fieldClassName?: string;
  value: string;
  onValueChange(value: string): void;
}

/** The control's attributes a field sets itself: its id, its description, its value. */
type Wired = "id" | "value" | "onChange" | "aria-invalid" | "aria-describedby";

/**
 * A `FormField` around an `Input`, in one element: the label, hint and error wired to the
 * control as `FormField` wires them; every other attribute goes to the input.
 */
export function TextField({
  label,
  hint,
  error,
  fieldClassName,
  onValueChange,
  ...input
}: TextFieldProps & Omit<ComponentProps<typeof Input>, Wired>) {
  return (
    <FormField label={label} hint={hint} error={error} className={fieldClassName}>
      {(control) => (
        <Input {...control} {...input} onChange={(e) => onValueChange(e.target.value)} />
      )}
    </FormField>
  );
}

/** `TextField` for several lines: a `FormField` around a `Textarea`. */
export function TextAreaField({
  label,
  hint,
  error,
  fieldClassName,
  onValueChange,
  ...textarea
}: TextFieldProps & Omit<ComponentProps<typeof Textarea>, Wired>) {
  return (
    <FormField label={label} hint={hint} error={error} className={fieldClassName}>
      {(control) => (
        <Textarea {...control} {...textarea} onChange={(e) => onValueChange(e.target.value)} />
      )}
    </FormField>
  );
}
