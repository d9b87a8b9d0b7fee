import { type ReactNode, useId } from "react";
import { cn } from "@/web/lib/cn";
import { Label } from "./label";

/** What a field's control must carry so the label, hint and error reach assistive technology. */
export interface FieldControlProps {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

/**
 * A label, its control, an optional hint and the field's error, wired together: the control is
 * rendered by `children` with the ids it needs, so every form reads and announces the same way.
 */
export function FormField({
  label,
  error,
  hint,
  className,
  children,
}: {
  label: ReactNode;
  error?: string | null | undefined;
  hint?: ReactNode;
  className?: string;
  children(control: FieldControlProps): ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ");
  return (
    <div data-slot="form-field" className={cn("grid gap-1.5", className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({
        id,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy || undefined,
      })}
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-sm text-destructive-text">
          {error}
        </p>
      )}
    </div>
  );
}

/** A form-level error (one no single field owns). */
export function FormError({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <p role="alert" className="text-sm text-destructive-text">
      {children}
    </p>
  );
}
