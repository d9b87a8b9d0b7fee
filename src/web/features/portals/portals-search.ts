import {
  PORTAL_UPLOADS_SEARCH_MAX,
  type PortalUploadStatus,
  portalUploadStatuses,
} from "@/contract/portal-rules";

/** What the queue shows: `awaiting` (received or pending, the default), one status, or all. */
export const queueStatuses = ["awaiting", ...portalUploadStatuses, "all"] as const;
export type QueueStatus = (typeof queueStatuses)[number];

/**
 * The `/portals` search: the list, the review queue with its filters, or one portal's page
 * (`portal`). One route for all three (each route's entry ships in every first load, Files'
 * too), parsed by the page as `/shares` does.
 */
export interface PortalsSearch {
  view: "list" | "review";
  portalId?: string;
  status: QueueStatus;
  /** The queue's search: text in the sender's name or address or the portal's title. */
  q?: string;
  /** One portal's page. */
  portal?: string;
}

/** The search as the address has it; the page parses it. */
export type RawPortalsSearch = Record<string, unknown>;

const ID = /^[a-z0-9]{1,64}$/;

export function parsePortalsSearch(s: RawPortalsSearch): PortalsSearch {
  const status = queueStatuses.find((v) => v === s.status) ?? "awaiting";
  const q = typeof s.q === "string" ? s.q.trim() : "";
  return {
    view: s.view === "review" ? "review" : "list",
    portalId: typeof s.portalId === "string" && ID.test(s.portalId) ? s.portalId : undefined,
    status,
    q: q && q.length <= PORTAL_UPLOADS_SEARCH_MAX ? q : undefined,
    portal: typeof s.portal === "string" && ID.test(s.portal) ? s.portal : undefined,
  };
}

/** The address for a parsed search: defaults left out, so links stay short. */
export function portalsSearchParams(s: PortalsSearch): Record<string, string | undefined> {
  if (s.view === "list") return {};
  return {
    view: "review",
    portalId: s.portalId,
    status: s.status === "awaiting" ? undefined : s.status,
    q: s.q,
  };
}

/** The queue's link for one portal's uploads that wait for review. */
export const reviewSearchFor = (portalId?: string) =>
  portalsSearchParams({ view: "review", portalId, status: "awaiting" });

/** The list request's `status` for a queue filter (`all` sends none). */
export const statusParam = (s: QueueStatus): PortalUploadStatus | "awaiting" | undefined =>
  s === "all" ? undefined : s;
