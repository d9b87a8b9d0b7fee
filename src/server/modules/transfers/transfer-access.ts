import { joinPath, parentOf } from "@/contract/rules";
import { TRANSFER_RESUME_WINDOW_SECONDS, terminalTransferStates } from "@/contract/transfers";
import type { Db } from "@/server/db/database";
import { ApiError } from "@/server/lib/api-error";
import { hashSecret } from "@/server/lib/secrets";
import { rootsDigest, scopeClaims, signTransferToken, type TransferClaims } from "./transfer-token";
import {
  markTokenUsed,
  pathsOf,
  type TransferPathRow,
  type TransferRow,
  transferRow,
} from "./transfers.repository";

/**
 * A transfer's token: signed claims (transfer-token.ts); only its hash is stored, as the
 * portal pages match a bearer to its transfer by it.
 */
export function issueTransferToken(
  dataDir: string,
  claims: Omit<TransferClaims, "kid" | "roots" | "rootsSha256">,
  roots: readonly string[],
) {
  const token = signTransferToken(dataDir, { ...claims, ...scopeClaims(roots) });
  return { token, hash: hashSecret(token) };
}

/** Where a token reaches: its roots, and whether exactly (a portal's declared files). */
export interface TransferScope {
  /** Workspace paths the token reaches: a send's destinations, a receive's sources. */
  roots: readonly string[];
  rootSet: ReadonlySet<string>;
  exact: boolean;
}

export interface TransferGrant extends TransferScope {
  transfer: TransferRow;
}

export const scopeOf = (roots: readonly string[], exact: boolean): TransferScope => ({
  roots,
  rootSet: new Set(roots),
  exact,
});

/** The scope the token itself carries, checked before any database read; null for a digest. */
export const claimedScope = (claims: TransferClaims) =>
  claims.roots ? scopeOf(claims.roots, claims.exact) : null;

/**
 * A transfer's paths never change after it is created: a token too long to carry its roots
 * names their digest, and the list read once (10,000 rows) is kept per transfer.
 */
const rootsCache = new Map<string, readonly string[]>();
const ROOTS_CACHED = 256;
/** The token's last use is written at most this often (it only has to beat the resume window). */
const ACTIVITY_RESOLUTION_MS = 60_000;

/** The roots remembered for a transfer, or undefined. */
export const knownRoots = (transferId: string) => rootsCache.get(transferId);

/** Remembers a transfer's roots (they never change), the oldest dropped past ROOTS_CACHED. */
export function rememberRoots(transfer: TransferRow, roots: readonly string[]) {
  if (rootsCache.size >= ROOTS_CACHED) rootsCache.delete(rootsCache.keys().next().value!);
  rootsCache.set(transfer.id, roots);
  return scopeOf(roots, Boolean(transfer.portal_id));
}

/** The transfer's scope as its stored paths say (cached: they never change). */
export function storedScope(db: Db, transfer: TransferRow): TransferScope {
  const known = knownRoots(transfer.id);
  if (known) return scopeOf(known, Boolean(transfer.portal_id));
  return rememberRoots(transfer, workspacePaths(transfer, pathsOf(db, transfer.id)));
}

/** A token too long to carry its roots: their digest must be the stored paths'. */
export function checkDigest(scope: TransferScope, digest: string) {
  if (rootsDigest(scope.roots) !== digest)
    throw new ApiError(401, "unauthenticated", "This transfer token is not known", {
      reason: "unknown",
    });
  return scope;
}

/**
 * grantFor's verdict on the token's transfer as stored, read by either engine: refused when
 * there is none, when it ended or when the token went stale; else whether its use is written.
 */
export function checkGrant(transfer: TransferRow | undefined, claims: TransferClaims, now: number) {
  if (!transfer || transfer.workspace_id !== claims.workspaceId)
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
  return { transfer, markUsed: lastUse === null || now - lastUse >= ACTIVITY_RESOLUTION_MS };
}

/**
 * The transfer behind a verified token (readTransferToken), in its current state: refused
 * (401 `expired_token` / `unauthenticated`, with `details.reason`) when there is no such
 * transfer, when the token was never used and its start window has passed, when the transfer
 * ended, or when it was last active longer ago than the resume window. A good token marks the
 * transfer active.
 */
export function grantFor(db: Db, claims: TransferClaims, now: number): TransferGrant {
  const { transfer, markUsed } = checkGrant(transferRow(db, claims.transferId), claims, now);
  if (markUsed) markTokenUsed(db, transfer.id, now);
  const scope = claimedScope(claims) ?? checkDigest(storedScope(db, transfer), claims.rootsSha256!);
  return { transfer, ...scope };
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
 * Whether a workspace path is one of the scope's roots or inside one ("" is the whole workspace).
 * A portal's transfer declares each of its files: it reaches those paths exactly, nothing below.
 */
export function withinGrant(grant: TransferScope, path: string) {
  if (grant.exact) return grant.rootSet.has(path);
  if (grant.rootSet.has("")) return true;
  for (let p = path; p !== ""; p = parentOf(p)) if (grant.rootSet.has(p)) return true;
  return false;
}
