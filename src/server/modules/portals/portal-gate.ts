import { nameMatches } from "@/contract/name-pattern";
import { portalFileProblem, portalStateOf } from "@/contract/portal-rules";
import type { Db } from "@/server/db/database";
import { ApiError, notFound, validationFailed } from "@/server/lib/api-error";
import type { TransferRow } from "@/server/modules/transfers/transfers.repository";
import { type PortalRow, portalRow } from "./portals.repository";
import { rulesOf } from "./portals.service";

/*
 * Whether a portal takes bytes, asked at each step of an upload: its page's requests, and the
 * data node's for every file it creates and every chunk it is sent (docs/api-decisions.md, The
 * portal page, Closing with uploads in flight).
 */

/**
 * A portal that takes uploads: not paused, expired or revoked (403 `forbidden`,
 * `details.reason` `portal_paused`, `portal_expired`, `portal_revoked`).
 */
export function requireOpenPortal(portal: PortalRow, now: number) {
  const state = portalStateOf({ status: portal.status, expiresAt: portal.expires_at }, now);
  if (state !== "open")
    throw new ApiError(403, "forbidden", `This portal is ${state}`, {
      reason: `portal_${state}`,
      state,
    });
}

/**
 * The data node's check of every request that brings a portal's transfer bytes: the portal
 * still takes them. One read by primary key; a transfer of no portal costs nothing.
 */
export function checkPortalTransfer(db: Db, transfer: TransferRow, now: number) {
  if (!transfer.portal_id) return undefined;
  const portal = portalRow(db, transfer.portal_id);
  if (!portal) throw notFound("Portal", { reason: "unknown_portal" });
  requireOpenPortal(portal, now);
  return portal;
}

/**
 * The data node's check of each file a portal's transfer creates: the portal still takes uploads
 * and the file meets its rules, whatever the page checked before.
 */
export function checkPortalFile(
  db: Db,
  transfer: TransferRow,
  file: { path: string; size: number },
  now: number,
) {
  const portal = checkPortalTransfer(db, transfer, now);
  if (!portal) return;
  const refused = portalFileProblem(
    rulesOf(portal),
    portal.max_bytes_per_upload,
    file,
    nameMatches,
  );
  if (refused) throw validationFailed("Upload-Metadata.path", refused.message, refused.code);
}
