import type { DeliveryStatus } from "@/contract/webhooks";
import { ToneBadge } from "./tone-badge";

const tones = { delivered: "success", pending: "warning", failed: "danger" } as const;
const labels = { delivered: "Delivered", pending: "Pending", failed: "Failed" };

export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  return <ToneBadge tone={tones[status]}>{labels[status]}</ToneBadge>;
}
