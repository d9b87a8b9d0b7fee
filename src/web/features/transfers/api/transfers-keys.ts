import type { TransferDirection, TransferState } from "@/contract/transfers";
import { workspacePath } from "@/web/lib/api-client";

/** What the monitor asks the service for; a client filter is applied to what comes back. */
export interface TransfersFilter {
  /** `active`: queued, running and paused. */
  status?: TransferState | "active";
  direction?: TransferDirection;
}

/** Keys derive from the request; invalidating `all` reaches every list and every transfer. */
export const transfersKeys = {
  all: (workspaceId: string) => ["transfers", workspaceId] as const,
  list: (workspaceId: string, filter: TransfersFilter) =>
    [...transfersKeys.all(workspaceId), "list", filter] as const,
  one: (workspaceId: string, id: string) => [...transfersKeys.all(workspaceId), "one", id] as const,
};

export const transfersPath = (rest = "") => workspacePath(`/transfers${rest}`);

/** While anything listed is active, the list is polled this often. */
export const ACTIVE_POLL_MS = 2_000;
/** The monitor shows the recent transfers, newest first. */
export const RECENT_LIMIT = 100;
