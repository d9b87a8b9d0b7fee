import type * as React from "react";
import { Badge } from "@/web/components/ui/badge";
import { cn } from "@/web/lib/cn";

const dots = { success: "bg-success", warning: "bg-warning", danger: "bg-destructive" };

/**
 * A status badge whose colour is a dot beside foreground text: the Badge's success and warning
 * tones put coloured text on a tint of itself, which falls just short of 4.5:1 in light mode.
 */
export function ToneBadge({
  tone,
  children,
}: {
  tone: keyof typeof dots;
  children: React.ReactNode;
}) {
  return (
    <Badge>
      <span aria-hidden="true" className={cn("size-2 rounded-full", dots[tone])} />
      {children}
    </Badge>
  );
}
