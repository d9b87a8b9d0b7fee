import type { DeliveryState } from "@/contract/receipt-verdict";
import { workspacePath } from "@/web/lib/api-client";

/** What the list asks the service for (the contract's list query, less paging). */
export interface SharesFilter {
  status?: "active" | "expired" | "revoked" | "exhausted";
  expiringWithinDays?: number;
  neverOpened?: boolean;
  recipient?: string;
  verdict?: DeliveryState;
}

/** Keys derive from the request; invalidating `all` reaches every list, share and receipt. */
export const sharesKeys = {
  all: (workspaceId: string) => ["shares", workspaceId] as const,
  lists: (workspaceId: string) => [...sharesKeys.all(workspaceId), "list"] as const,
  list: (workspaceId: string, filter: SharesFilter) =>
    [...sharesKeys.lists(workspaceId), filter] as const,
  one: (workspaceId: string, id: string) => [...sharesKeys.all(workspaceId), "one", id] as const,
  receipt: (workspaceId: string, id: string) =>
    [...sharesKeys.all(workspaceId), "receipt", id] as const,
  comments: (workspaceId: string, id: string) =>
    [...sharesKeys.all(workspaceId), "comments", id] as const,
  outbox: (workspaceId: string) => [...sharesKeys.all(workspaceId), "outbox"] as const,
};

export const sharesPath = (rest = "") => workspacePath(`/shares${rest}`);
export const sharePath = (id: string, rest = "") => sharesPath(`/${encodeURIComponent(id)}${rest}`);

export const SHARES_PAGE_SIZE = 50;
