import type { DeliveryStatus } from "@/contract/webhooks";
import { ToneBadge } from "./tone-badge";

const tones = { delivered: "success", pending: "warning", failed: "danger" } as const;
const labels = { delivered: "Delivered", pending: "Pending", failed: "Failed" };

/** A pending delivery of a disabled endpoint reads "Held": it is not going to be attempted. */
export function DeliveryStatusBadge({ status, held }: { status: DeliveryStatus; held?: boolean }) {
  return <ToneBadge tone={tones[status]}>{held ? "Held" : labels[status]}</ToneBadge>;
}
