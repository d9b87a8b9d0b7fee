import type { z } from "zod";
import type { EventData } from "@/contract/events";
import type {
  listPortalUploadsQuerySchema,
  PortalUploadsPage,
  reviewBodySchema,
} from "@/contract/portal-review";
import {
  awaitingReviewStatuses,
  type PortalUploadStatus,
  reviewableStatuses,
} from "@/contract/portal-rules";
import type { PortalUpload } from "@/contract/portals";
import type { AppDeps } from "@/server/deps";
import type { Caller } from "@/server/http/caller";
import { notFound, validationFailed } from "@/server/lib/api-error";
import { moveApproved, moveBack } from "./approval-move";
import {
  countUploads,
  listUploadRows,
  type PortalRow,
  type UploadRow,
  uploadById,
} from "./portals.repository";
import { portalBase, portalOf } from "./portals.service";
import { tellSender } from "./sender-status.service";
import { recordReview } from "./upload-review.repository";
import { toUpload } from "./upload-view";

/** The statuses a queue filter names: one, or `awaiting` (received or pending). */
const statusesOf = (status: z.output<typeof listPortalUploadsQuerySchema>["status"]) =>
  status === undefined ? undefined : status === "awaiting" ? awaitingReviewStatuses : [status];

export function listUploads(
  deps: AppDeps,
  workspaceId: string,
  q: z.output<typeof listPortalUploadsQuerySchema>,
): PortalUploadsPage {
  const filter = queueFilter(q);
  const rows = listUploadRows(deps.db, workspaceId, {
    ...filter,
    cursor: q.cursor,
    limit: q.limit + 1,
  });
  const page = rows.slice(0, q.limit);
  return {
    items: page.map(toUpload),
    next: rows.length > q.limit ? page.at(-1)!.id : null,
    total: countUploads(deps.db, workspaceId, filter),
  };
}

/** The upload a decision is about: 404 unless it is the portal's, `not_received` before it landed. */
export function reviewable<U extends UploadRow>(
  upload: U | undefined,
  portal: PortalRow,
  uploadId: string,
): U {
  if (!upload || upload.portal_id !== portal.id) throw notFound(`Upload ${uploadId}`, { uploadId });
  if (!reviewableStatuses.includes(upload.status))
    throw validationFailed(
      "decision",
      `An upload still ${upload.status} cannot be reviewed`,
      "not_received",
      { issue: "its files have not all landed", details: { status: upload.status } },
    );
  return upload;
}

export const reviewedEvent = (
  portal: PortalRow,
  before: UploadRow,
  after: UploadRow,
  view: PortalUpload,
  decision: EventData<"portal.upload.reviewed">["decision"],
): EventData<"portal.upload.reviewed"> => ({
  portalId: portal.id,
  uploadId: before.id,
  folder: after.folder_path,
  decision,
  previousStatus: before.status,
  note: view.reviewNote,
  reviewedBy: view.reviewedBy,
});

/** The statuses a queue filter names: one, or `awaiting` (received or pending). */
export const queueFilter = (q: z.output<typeof listPortalUploadsQuerySchema>) => ({
  portalId: q.portalId,
  statuses: statusesOf(q.status),
  q: q.q,
});

/**
 * A reviewer's decision (approved, rejected, pending) with its note, who and when. Only an
 * upload whose files landed can be reviewed (`not_received`); deciding again replaces the last
 * decision (the console's undo). Records `portal.upload.reviewed`. Approving an upload of a
 * portal with `approvedPath` moves its folder there with a move job, and its record follows;
 * deciding an approved upload otherwise moves it back (approval-move.ts).
 */
export function reviewUpload(
  deps: AppDeps,
  caller: Caller,
  portalId: string,
  uploadId: string,
  body: z.output<typeof reviewBodySchema>,
): PortalUpload {
  const { db } = deps;
  return db
    .transaction((): PortalUpload => {
      const portal = portalOf(deps, caller.workspaceId, portalId);
      const upload = reviewable(uploadById(db, caller.workspaceId, uploadId), portal, uploadId);
      const now = deps.clock.now();
      const status: PortalUploadStatus = body.decision;
      recordReview(db, upload.id, {
        status,
        note: body.note ?? null,
        noteToSender: body.noteToSender ?? null,
        memberId: caller.memberId,
        now,
      });
      if (status === "approved" && upload.status !== "approved" && portal.approved_path !== null)
        moveApproved(deps, caller.workspaceId, upload, portal.approved_path);
      if (upload.status === "approved" && status !== "approved")
        moveBack(deps, caller.workspaceId, upload);
      const updated = uploadById(db, caller.workspaceId, upload.id)!;
      tellSender(deps, portal, updated, portalBase(deps, caller.origin));
      const view = toUpload(updated);
      const data = reviewedEvent(portal, upload, updated, view, body.decision);
      deps.events.record(caller.workspaceId, "portal.upload.reviewed", data);
      return view;
    })
    .immediate();
}
