import { joinPath } from "@/contract/rules";
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
  roots: string[];
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
  markTokenUsed(db, transfer.id, now);
  return { transfer, roots: workspacePaths(transfer, pathsOf(db, transfer.id)) };
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

/** Whether a workspace path is one of the grant's roots or inside one ("" is the whole workspace). */
export function withinGrant(grant: TransferGrant, path: string) {
  return grant.roots.some((root) => root === "" || path === root || path.startsWith(`${root}/`));
}
