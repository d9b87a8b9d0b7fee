import { joinPath, parentOf } from "@/contract/rules";
import { TRANSFER_RESUME_WINDOW_SECONDS, terminalTransferStates } from "@/contract/transfers";
import type { Db } from "@/server/db/database";
import { ApiError } from "@/server/lib/api-error";
import { randomBase62 } from "@/server/lib/ids";
import { hashSecret } from "@/server/lib/secrets";
import {
  byTokenHash,
  markTokenUsed,
  pathsOf,
  type TransferPathRow,
  type TransferRow,
} from "./transfers.repository";

/** Transfer tokens: `ctt_` and 43 base62 characters (256 bits); only the hash is stored. */
export const TRANSFER_TOKEN_PREFIX = "ctt_";
const tokenPattern = /^ctt_[A-Za-z0-9]{43}$/;

export function issueTransferToken() {
  const token = `${TRANSFER_TOKEN_PREFIX}${randomBase62(43)}`;
  return { token, hash: hashSecret(token) };
}

export interface TransferGrant {
  transfer: TransferRow;
  /** Workspace paths the token reaches: a send's destinations, a receive's sources. */
  roots: readonly string[];
  rootSet: ReadonlySet<string>;
}

/**
 * A transfer's paths never change after it is created, and every node request checks them: a
 * send of 10,000 files listed one by one would otherwise read 10,000 rows per request.
 */
const rootsCache = new Map<string, { roots: readonly string[]; rootSet: ReadonlySet<string> }>();
const ROOTS_CACHED = 256;
/** The token's last use is written at most this often (it only has to beat the resume window). */
const ACTIVITY_RESOLUTION_MS = 60_000;

function rootsOf(db: Db, transfer: TransferRow) {
  let entry = rootsCache.get(transfer.id);
  if (!entry) {
    const roots = workspacePaths(transfer, pathsOf(db, transfer.id));
    entry = { roots, rootSet: new Set(roots) };
    if (rootsCache.size >= ROOTS_CACHED) rootsCache.delete(rootsCache.keys().next().value!);
    rootsCache.set(transfer.id, entry);
  }
  return entry;
}

/**
 * The data node's check of a bearer token. Refused (401 `expired_token` / `unauthenticated`,
 * with `details.reason`) when it is unknown, when it was never used and its start window has
 * passed, when the transfer ended, or when it was last active longer ago than the resume window.
 * A good token marks the transfer active.
 */
export function grantFor(db: Db, token: string | null | undefined, now: number): TransferGrant {
  if (!token || !tokenPattern.test(token))
    throw new ApiError(401, "unauthenticated", "A transfer token is required", {
      reason: token ? "malformed" : "missing",
    });
  const transfer = byTokenHash(db, hashSecret(token));
  if (!transfer)
    throw new ApiError(401, "unauthenticated", "This transfer token is not known", {
      reason: "unknown",
    });
  if (terminalTransferStates.includes(transfer.status))
    throw new ApiError(401, "expired_token", `This transfer is ${transfer.status}`, {
      reason: "transfer_ended",
      status: transfer.status,
    });
  const lastUse = transfer.token_used_at === null ? null : (transfer.last_activity_at ?? 0);
  if (
    lastUse === null
      ? now > transfer.token_expires_at
      : now - lastUse > TRANSFER_RESUME_WINDOW_SECONDS * 1000
  )
    throw new ApiError(401, "expired_token", "This transfer token has expired", {
      reason: "expired",
    });
  if (lastUse === null || now - lastUse >= ACTIVITY_RESOLUTION_MS)
    markTokenUsed(db, transfer.id, now);
  return { transfer, ...rootsOf(db, transfer) };
}

const joinRoot = (root: string, p: string) => (root ? (p ? joinPath(root, p) : root) : p);

/** The workspace side of each path item, its root joined: a send's destinations, a receive's sources. */
export const workspacePaths = (
  transfer: Pick<TransferRow, "direction" | "destination_root" | "source_root">,
  paths: Pick<TransferPathRow, "source" | "destination">[],
) =>
  paths.map((p) =>
    transfer.direction === "send"
      ? joinRoot(transfer.destination_root, p.destination)
      : joinRoot(transfer.source_root, p.source),
  );

/**
 * Whether a workspace path is one of the grant's roots or inside one ("" is the whole workspace).
 * A portal's transfer declares each of its files: it reaches those paths exactly, nothing below.
 */
export function withinGrant(grant: TransferGrant, path: string) {
  if (grant.transfer.portal_id) return grant.rootSet.has(path);
  if (grant.rootSet.has("")) return true;
  for (let p = path; p !== ""; p = parentOf(p)) if (grant.rootSet.has(p)) return true;
  return false;
}
