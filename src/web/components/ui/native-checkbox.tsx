import { type ComponentProps, useLayoutEffect, useRef } from "react";
import { cn } from "@/web/lib/cn";

/**
 * A browser checkbox with a tri-state `checked`, for long lists: Radix's Checkbox costs a few KB
 * and a component tree per row, this costs one element (and follows the theme via accent-color).
 */
export function NativeCheckbox({
  checked,
  className,
  ...props
}: Omit<ComponentProps<"input">, "type" | "checked"> & { checked: boolean | "indeterminate" }) {
  const ref = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    if (ref.current) ref.current.indeterminate = checked === "indeterminate";
  }, [checked]);
  return (
    <input
      ref={ref}
      type="checkbox"
      data-slot="native-checkbox"
      checked={checked === true}
      className={cn(
        "size-4 shrink-0 cursor-pointer rounded accent-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring dark:accent-link",
        className,
      )}
      {...props}
    />
  );
}
