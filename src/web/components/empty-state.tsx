import type { LucideIcon } from "lucide-react";
import type * as React from "react";

/** The designed "nothing here (yet)" state: an icon, a heading, a sentence, maybe an action. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  action,
}: {
  icon: LucideIcon;
  title: string;
  children?: React.ReactNode;
  action?: React.ReactNode;
}) {
  return (
    <div className="mx-auto mt-16 grid max-w-md justify-items-center gap-2 p-6 text-center">
      <Icon className="size-8 text-muted-foreground" aria-hidden="true" />
      <h2 className="font-medium">{title}</h2>
      {children && <div className="text-sm text-muted-foreground">{children}</div>}
      {action && <div className="mt-3">{action}</div>}
    </div>
  );
}
