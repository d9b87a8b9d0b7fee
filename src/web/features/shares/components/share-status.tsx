import { type DeliveryState, deliveryLabel, deliveryTone } from "@/contract/receipt-verdict";
import type { ShareStatus } from "@/contract/shares";
import { Badge } from "@/web/components/ui/badge";
import { cn } from "@/web/lib/cn";

const looks: Record<ShareStatus, { label: string; dot: string }> = {
  active: { label: "Active", dot: "bg-success" },
  expired: { label: "Expired", dot: "bg-muted-foreground" },
  revoked: { label: "Revoked", dot: "bg-destructive" },
  exhausted: { label: "Limit reached", dot: "bg-warning" },
};

/** A colour dot beside foreground text (a tinted text falls short of 4.5:1 in light mode). */
export function ShareStatusBadge({ status }: { status: ShareStatus }) {
  const look = looks[status];
  return (
    <Badge>
      <span aria-hidden="true" className={cn("size-2 rounded-full", look.dot)} />
      {look.label}
    </Badge>
  );
}

const toneDot = {
  success: "bg-success",
  warning: "bg-warning",
  danger: "bg-destructive",
  neutral: "bg-muted-foreground",
};

/** The share's delivery verdict (contract/receipt-verdict.ts), as the status is shown. */
export function DeliveryBadge({ verdict }: { verdict: DeliveryState }) {
  return (
    <Badge data-testid="delivery">
      <span
        aria-hidden="true"
        className={cn("size-2 rounded-full", toneDot[deliveryTone[verdict]])}
      />
      {deliveryLabel[verdict]}
    </Badge>
  );
}
