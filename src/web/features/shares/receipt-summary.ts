import {
  type DeliveryState,
  deliveryLabel,
  deliveryMeaning,
  deliveryStates,
  deliveryTone,
} from "@/contract/receipt-verdict";
import type { Receipt } from "@/contract/receipts";

export interface ReceiptVerdict {
  tone: (typeof deliveryTone)[DeliveryState];
  headline: string;
  detail: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The receipt's answer at a glance (the shared verdict), with how many recipients are where. */
export function receiptVerdict(
  r: Pick<Receipt, "verdict" | "recipients" | "anonymous">,
): ReceiptVerdict {
  const counts = deliveryStates
    .map((s) => [s, r.recipients.filter((p) => p.delivery === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${deliveryLabel[s].toLowerCase()}`);
  const people =
    r.recipients.length > 0
      ? ` ${plural(r.recipients.length, "recipient")}: ${counts.join(", ")}.`
      : " Judged on the plain link's downloads (the share has no recipients).";
  const plain =
    r.recipients.length > 0 && r.anonymous.downloads > 0
      ? ` Plus ${plural(r.anonymous.downloads, "download")} through the plain link.`
      : "";
  return {
    tone: deliveryTone[r.verdict],
    headline: deliveryLabel[r.verdict],
    detail: `${deliveryMeaning[r.verdict]}${people}${plain}`,
  };
}
