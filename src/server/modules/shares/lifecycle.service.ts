import type { z } from "zod";
import type { EventData } from "@/contract/events";
import {
  type BulkSharesResult,
  type bulkSharesBodySchema,
  SHARE_EXPIRES_DAYS_MAX,
  type Share,
  type updateShareBodySchema,
} from "@/contract/shares";
import type { AppDeps } from "@/server/deps";
import type { Caller } from "@/server/http/caller";
import { ApiError, validationFailed } from "@/server/lib/api-error";
import { toIso } from "@/server/lib/clock";
import { collectBlobs } from "@/server/modules/files/trash.service";
import {
  type ChangeRow,
  holdBlobs,
  insertChange,
  markExpired,
  markRevoked,
  type ShareRow,
  shareById,
  shareRow,
  updateLimits,
} from "./shares.repository";
import { DAY_MS, getShare, linkBase, requireShare, toShare } from "./shares.service";

/*
 * A share's life after it is made: a new expiry or download limit, revocation, the expiry job,
 * and the bulk extend/revoke that runs each single operation.
 */

/** Job kind that records a share's expiry at its time, once. */
export const EXPIRE_JOB = "shares.expire";
export const EXPIRE_ATTEMPTS = 10;

/** The expiry job's unique key: one job per share and expiry. */
export const expiryKey = (shareId: string, expiresAt: number) =>
  `${EXPIRE_JOB}:${shareId}:${expiresAt}`;

export const scheduleExpiry = (deps: AppDeps, shareId: string, expiresAt: number) =>
  deps.jobs.enqueue(
    EXPIRE_JOB,
    { shareId, expiresAt },
    { runAt: expiresAt, uniqueKey: expiryKey(shareId, expiresAt) },
  );

export type UpdateInput = z.output<typeof updateShareBodySchema>;

/**
 * A new expiry (from now, or a time; in the future and at most 365 days ahead) and/or a new
 * download limit, for the share as read. A revoked share is refused (`revoked`).
 */
export function newLimits(row: ShareRow, body: UpdateInput, now: number) {
  if (row.revoked_at !== null)
    throw validationFailed("shareId", "A revoked share cannot be changed", "revoked");
  let expiresAt = row.expires_at;
  if (body.expiresInDays !== undefined) expiresAt = now + body.expiresInDays * DAY_MS;
  if (body.expiresAt !== undefined) {
    expiresAt = Date.parse(body.expiresAt);
    if (expiresAt <= now)
      throw validationFailed("expiresAt", "The new expiry must be in the future", "in_the_past");
    if (expiresAt > now + SHARE_EXPIRES_DAYS_MAX * DAY_MS)
      throw validationFailed(
        "expiresAt",
        `At most ${SHARE_EXPIRES_DAYS_MAX} days ahead`,
        "too_far",
      );
  }
  const maxDownloads = body.maxDownloads === undefined ? row.max_downloads : body.maxDownloads;
  const change: ChangeRow = {
    share_id: row.id,
    changed_at: now,
    expires_at: expiresAt,
    previous_expires_at: row.expires_at,
    max_downloads: maxDownloads,
    previous_max_downloads: row.max_downloads,
  };
  const event: EventData<"share.extended"> = {
    shareId: row.id,
    expiresAt: toIso(expiresAt),
    previousExpiresAt: toIso(row.expires_at),
    maxDownloads,
    previousMaxDownloads: row.max_downloads,
  };
  return { change, event };
}

/**
 * Applies newLimits: an expired or exhausted share becomes active again. Records
 * `share.extended` and a timeline entry; a new expiry gets its own job.
 */
export function updateShare(deps: AppDeps, caller: Caller, id: string, body: UpdateInput): Share {
  const { db } = deps;
  const { workspaceId } = caller;
  return db
    .transaction((): Share => {
      const now = deps.clock.now();
      const row = requireShare(deps, workspaceId, id);
      const { change, event } = newLimits(row, body, now);
      const limits = { expires_at: change.expires_at, max_downloads: change.max_downloads, now };
      updateLimits(db, id, limits);
      insertChange(db, change);
      if (change.expires_at !== row.expires_at) scheduleExpiry(deps, id, change.expires_at);
      deps.events.record(workspaceId, "share.extended", event);
      return toShare(deps, shareById(db, workspaceId, id)!, linkBase(deps, caller.origin));
    })
    .immediate();
}

/**
 * Revokes for good: links stop working, `share.revoked` is recorded once, and the share gives
 * back its hold on the blobs (the receipt keeps every checksum). Revoking again answers the
 * share unchanged.
 */
export function revokeShare(deps: AppDeps, caller: Caller, id: string): Share {
  if (markShareRevoked(deps, caller.workspaceId, id)) collectBlobs(deps.db, deps.files.blobs);
  return getShare(deps, caller, id);
}

/**
 * The revocation itself, without collecting the blobs it released (true when it released
 * some), so a bulk revoke collects once for all its shares.
 */
function markShareRevoked(deps: AppDeps, workspaceId: string, id: string): boolean {
  const { db } = deps;
  return db
    .transaction(() => {
      requireShare(deps, workspaceId, id);
      if (!markRevoked(db, id, deps.clock.now())) return false;
      holdBlobs(db, id, -1);
      const data: EventData<"share.revoked"> = { shareId: id };
      deps.events.record(workspaceId, "share.revoked", data);
      return true;
    })
    .immediate();
}

/**
 * Extends or revokes the listed shares in one transaction, each exactly as its single operation
 * would (same event, same refusals). A share its single operation refuses is left as it was and
 * listed in `failed` with that refusal's code (the issue's code for a validation_failed, e.g.
 * `revoked`); the others are done.
 */
export function bulkShares(
  deps: AppDeps,
  caller: Caller,
  body: z.output<typeof bulkSharesBodySchema>,
): BulkSharesResult {
  const { db } = deps;
  const result: BulkSharesResult = { done: [], failed: [] };
  let released = false;
  db.transaction(() => {
    for (const id of new Set(body.shareIds)) {
      try {
        // Each single operation is a nested transaction (a savepoint): a refused one undoes only itself.
        if (body.action === "revoke")
          released = markShareRevoked(deps, caller.workspaceId, id) || released;
        else
          updateShare(deps, caller, id, {
            expiresInDays: body.expiresInDays,
            expiresAt: body.expiresAt,
          });
        result.done.push(id);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        const issue = (e.details?.issues as { code: string }[] | undefined)?.[0];
        result.failed.push({ shareId: id, code: issue?.code ?? e.code, message: e.message });
      }
    }
  }).immediate();
  if (released) collectBlobs(db, deps.files.blobs);
  return result;
}

/**
 * Called by the expiry job (through the upkeep store): records `share.expired` once for the
 * expiry it was scheduled for. True when it did.
 */
export function expireShare(
  deps: Pick<AppDeps, "db" | "clock" | "events">,
  shareId: string,
  expiresAt: number,
): boolean {
  return deps.db
    .transaction(() => {
      const now = deps.clock.now();
      if (!markExpired(deps.db, shareId, expiresAt, now)) return false;
      const row = shareRow(deps.db, shareId)!;
      deps.events.record(row.workspace_id, "share.expired", expiredEvent(shareId, expiresAt));
      return true;
    })
    .immediate();
}

/** `share.expired`'s data, for either engine. */
export const expiredEvent = (shareId: string, expiresAt: number): EventData<"share.expired"> => ({
  shareId,
  expiredAt: toIso(expiresAt),
});
