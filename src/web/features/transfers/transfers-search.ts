// Apart from the page: the route's validateSearch stays in the main bundle, and importing it from
// the page module would pull the whole page into every first load.
import { transferClients, transferStates } from "@/contract/rules";
import type { TransferClient, TransferDirection, TransferState } from "@/contract/transfers";

/** The `/transfers` search: the filters, and the transfer whose details are open. */
export interface TransfersSearch {
  /** `active`: queued, running or paused; absent: every recent transfer. */
  status?: TransferState | "active";
  direction?: TransferDirection;
  client?: TransferClient;
  transfer?: string;
}

const oneOf = <T extends string>(values: readonly T[], v: unknown): T | undefined =>
  values.includes(v as T) ? (v as T) : undefined;

export const parseTransfersSearch = (search: Record<string, unknown>): TransfersSearch => ({
  status: oneOf([...transferStates, "active" as const], search.status),
  direction: oneOf(["send", "receive"] as const, search.direction),
  client: oneOf(transferClients, search.client),
  transfer:
    typeof search.transfer === "string" && search.transfer.length <= 128
      ? search.transfer
      : undefined,
});
