import type { PgPool } from "@/server/db/pg/pool";
import {
  checkDigest,
  checkGrant,
  claimedScope,
  knownRoots,
  rememberRoots,
  scopeOf,
  type TransferGrant,
  workspacePaths,
} from "./transfer-access";
import type { TransferClaims } from "./transfer-token";
import type { TransferPathRow, TransferRow } from "./transfers.repository";

/**
 * grantFor on PostgreSQL, for the node's units: the same checks on the row as read, the token's
 * use marked by one UPDATE that needs no lock (it only moves the times forward, and the first
 * use is kept by coalesce), the roots cached as SQLite's are.
 */
export async function grantForPg(
  pool: PgPool,
  claims: TransferClaims,
  now: number,
): Promise<TransferGrant> {
  const { rows } = await pool.query<TransferRow>("SELECT * FROM transfers WHERE id = $1", [
    claims.transferId,
  ]);
  const { transfer, markUsed } = checkGrant(rows[0], claims, now);
  if (markUsed)
    await pool.query(
      `UPDATE transfers SET token_used_at = coalesce(token_used_at, $2), last_activity_at = $2
       WHERE id = $1`,
      [transfer.id, now],
    );
  const scope =
    claimedScope(claims) ?? checkDigest(await storedScopePg(pool, transfer), claims.rootsSha256!);
  return { transfer, ...scope };
}

async function storedScopePg(pool: PgPool, transfer: TransferRow) {
  const known = knownRoots(transfer.id);
  if (known) return scopeOf(known, Boolean(transfer.portal_id));
  const { rows } = await pool.query<TransferPathRow>(
    "SELECT source, destination FROM transfer_paths WHERE transfer_id = $1 ORDER BY idx",
    [transfer.id],
  );
  return rememberRoots(transfer, workspacePaths(transfer, rows));
}
