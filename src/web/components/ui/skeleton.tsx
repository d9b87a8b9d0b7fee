import type * as React from "react";
import { cn } from "@/web/lib/cn";

export function Skeleton({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      data-slot="skeleton"
      aria-hidden="true"
      className={cn("animate-pulse rounded-md bg-muted", className)}
      {...props}
    />
  );
}

/** A loading list: placeholder rows in a busy status region named for what is loading. */
export function SkeletonRows({
  label,
  rows,
  rowClassName,
  className,
}: {
  label: string;
  rows: number;
  rowClassName: string;
  className?: string;
}) {
  return (
    <div className={cn("grid gap-2", className)} role="status" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <Skeleton key={i} className={rowClassName} />
      ))}
    </div>
  );
}
