import type { z } from "zod";
import type { BulkReviewResult, bulkReviewBodySchema } from "@/contract/portal-review";
import type { AppDeps } from "@/server/deps";
import type { Caller } from "@/server/http/caller";
import { ApiError } from "@/server/lib/api-error";
import { uploadById } from "./portals.repository";
import { reviewUpload } from "./review.service";

export const unknownUpload = (uploadId: string) =>
  new ApiError(404, "not_found", `Upload ${uploadId} was not found`);

/** An upload the selection could not decide: its reason's code (the issue's, when it has one). */
export function refusalOf(uploadId: string, error: ApiError) {
  const issues = (error.details?.issues ?? []) as { code: string }[];
  return { uploadId, code: issues[0]?.code ?? error.code, message: error.message };
}

/**
 * One decision for several uploads (the queue's selection), in one transaction: each upload is
 * decided exactly as `reviewUpload` decides one (its event, an approval's move job), in a
 * savepoint of its own, so an upload that cannot be decided (unknown here, not landed) is named
 * with its reason and the others still are. The bound (REVIEW_BULK_MAX) keeps it one request's
 * work: an approval's folder move is a job already, not done here.
 */
export function reviewUploads(
  deps: AppDeps,
  caller: Caller,
  body: z.output<typeof bulkReviewBodySchema>,
): BulkReviewResult {
  const { uploadIds, ...review } = body;
  return deps.db
    .transaction((): BulkReviewResult => {
      const result: BulkReviewResult = { decided: [], refused: [] };
      // One named twice is decided once.
      for (const uploadId of new Set(uploadIds)) {
        const portalId = uploadById(deps.db, caller.workspaceId, uploadId)?.portal_id;
        try {
          if (portalId === undefined) throw unknownUpload(uploadId);
          result.decided.push(reviewUpload(deps, caller, portalId, uploadId, review));
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          result.refused.push(refusalOf(uploadId, error));
        }
      }
      return result;
    })
    .immediate();
}
