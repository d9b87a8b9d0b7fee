import type { InfiniteData } from "@tanstack/react-query";
import type { PortalUploadsPage } from "@/contract/portal-review";
import {
  awaitingReviewStatuses,
  type PortalUploadStatus,
  type ReviewDecision,
} from "@/contract/portal-rules";
import type { Portal, PortalDetail, PortalUpload } from "@/contract/portals";
import type { ReviewNotes } from "../state/review-undo";

/**
 * A decision shown before the service answers: what each cached view of the uploads becomes,
 * as pure functions over the cached data (tested on their own; the mutation applies them).
 */

/** What a cached queue asked the service for (the list query, less paging). */
export interface UploadsFilter {
  portalId?: string;
  /** Absent: every status. */
  status?: PortalUploadStatus | "awaiting";
  /** Text in the sender's name or address or the portal's title (a decision never changes it). */
  q?: string;
}

export type UploadPages = InfiniteData<PortalUploadsPage, string | undefined>;

export const isAwaiting = (status: PortalUploadStatus) => awaitingReviewStatuses.includes(status);

/** Whether a queue with this filter lists an upload in this status. */
export function statusMatches(
  status: PortalUploadStatus,
  filter: UploadsFilter["status"],
): boolean {
  if (filter === undefined) return true;
  if (filter === "awaiting") return isAwaiting(status);
  return status === filter;
}

const listedBy = (filter: UploadsFilter, u: PortalUpload) =>
  (filter.portalId === undefined || filter.portalId === u.portalId) &&
  statusMatches(u.status, filter.status);

/** The upload as the console shows it once decided, until the service's answer replaces it. */
export function decidedLocally(
  upload: PortalUpload,
  decision: ReviewDecision,
  notes: ReviewNotes | undefined,
  at: string,
): PortalUpload {
  return {
    ...upload,
    status: decision,
    reviewNote: notes?.note || null,
    noteToSender: notes?.noteToSender || null,
    reviewedAt: at,
  };
}

/**
 * One cached queue with `next` (the upload's new state) in it: replaced in place; taken out when
 * the filter no longer lists it; put back where its id sorts (newest first) when it lists it
 * again and that place is among the loaded pages. `total` follows what the filter counts.
 */
export function placeInPages(
  data: UploadPages | undefined,
  filter: UploadsFilter,
  previous: PortalUpload,
  next: PortalUpload,
): UploadPages | undefined {
  if (!data) return data;
  const before = listedBy(filter, previous);
  const after = listedBy(filter, next);
  const delta = (after ? 1 : 0) - (before ? 1 : 0);
  let found = false;
  let pages = data.pages.map((page) => {
    const i = page.items.findIndex((u) => u.id === next.id);
    if (i < 0) return page;
    found = true;
    const items = after
      ? page.items.map((u, j) => (j === i ? next : u))
      : page.items.filter((_, j) => j !== i);
    return { ...page, items };
  });
  if (!found && after) pages = insertByAge(pages, next);
  if (delta !== 0)
    pages = pages.map((page) => ({ ...page, total: Math.max(0, page.total + delta) }));
  const changed = found || delta !== 0 || pages.some((page, i) => page !== data.pages[i]);
  return changed ? { ...data, pages } : data;
}

/** Newest first by id (ids sort by creation time); beyond the loaded pages it is left out. */
function insertByAge(pages: PortalUploadsPage[], upload: PortalUpload): PortalUploadsPage[] {
  for (let p = 0; p < pages.length; p++) {
    const page = pages[p]!;
    const i = page.items.findIndex((u) => u.id < upload.id);
    if (i >= 0) {
      const items = [...page.items.slice(0, i), upload, ...page.items.slice(i)];
      return pages.map((old, q) => (q === p ? { ...page, items } : old));
    }
  }
  const last = pages.at(-1);
  if (!last || last.next !== null) return pages;
  return pages.map((old, q) =>
    q === pages.length - 1 ? { ...last, items: [...last.items, upload] } : old,
  );
}

const awaitingDelta = (previous: PortalUpload, next: PortalUpload) =>
  (isAwaiting(next.status) ? 1 : 0) - (isAwaiting(previous.status) ? 1 : 0);

/** A portal's page with the upload's new state and its "to review" count. */
export function placeInDetail(
  detail: PortalDetail | undefined,
  previous: PortalUpload,
  next: PortalUpload,
): PortalDetail | undefined {
  if (!detail || detail.id !== next.portalId) return detail;
  return {
    ...detail,
    awaitingReview: Math.max(0, detail.awaitingReview + awaitingDelta(previous, next)),
    uploads: detail.uploads.map((u) => (u.id === next.id ? next : u)),
  };
}

/** The portals list with the upload's portal's "to review" count moved. */
export function placeInPortals(
  portals: Portal[] | undefined,
  previous: PortalUpload,
  next: PortalUpload,
): Portal[] | undefined {
  const delta = awaitingDelta(previous, next);
  if (!portals || delta === 0) return portals;
  return portals.map((p) =>
    p.id === next.portalId ? { ...p, awaitingReview: Math.max(0, p.awaitingReview + delta) } : p,
  );
}

/** An upload that changes without anyone acting: files arriving, or its spec being checked. */
export const inMotion = (u: PortalUpload) =>
  u.status === "uploading" || u.specCheck.status === "checking";
