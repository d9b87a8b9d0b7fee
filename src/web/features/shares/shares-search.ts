import { type DeliveryState, deliveryStates } from "@/contract/receipt-verdict";
import { EMAIL_MAX, SHARE_EXPIRES_DAYS_MAX, shareStatuses } from "@/contract/rules";
import type { ShareStatus } from "@/contract/shares";

/**
 * The `/shares` search: the contract's list filters, whether the outbox is shown, and the share
 * that is open (its receipt, with `view`). One route rather than two: each route's entry costs
 * Files' first load.
 */
export interface SharesSearch {
  status?: ShareStatus;
  expiringWithinDays?: number;
  neverOpened?: true;
  recipient?: string;
  verdict?: DeliveryState;
  outbox?: true;
  share?: string;
  view?: "receipt";
}

/** The search as the address has it; the page parses it (see `parseSharesSearch`). */
export type RawSharesSearch = { [K in keyof SharesSearch]?: unknown };

const yes = (v: unknown) => (v === true || v === "true" ? true : undefined);

export function parseSharesSearch(s: Record<string, unknown>): SharesSearch {
  const days = Number(s.expiringWithinDays);
  const recipient = String(s.recipient ?? "")
    .trim()
    .toLowerCase();
  return {
    status: shareStatuses.find((v) => v === s.status),
    expiringWithinDays: days >= 1 && days <= SHARE_EXPIRES_DAYS_MAX ? Math.floor(days) : undefined,
    neverOpened: yes(s.neverOpened),
    recipient: recipient && recipient.length <= EMAIL_MAX ? recipient : undefined,
    verdict: deliveryStates.find((v) => v === s.verdict),
    outbox: yes(s.outbox),
    share: typeof s.share === "string" && s.share.length <= 128 ? s.share : undefined,
    view: s.view === "receipt" ? s.view : undefined,
  };
}
