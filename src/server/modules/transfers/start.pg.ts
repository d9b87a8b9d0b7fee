import type { CreatedTransfer } from "@/contract/transfers";
import { insertRowPg } from "@/server/db/pg/insert-row";
import { lockWorkspace, type PgClient } from "@/server/db/pg/pool";
import type { AppDeps } from "@/server/deps";
import type { Caller } from "@/server/http/caller";
import { byPath, live } from "@/server/modules/files/tree.pg";
import { subtreeTotalsPg } from "@/server/modules/operations/operations.pg";
import { chooseNode, NODE_PLACE_IDLE_MS, weighsLoad } from "./node-choice";
import {
  declaredTotals,
  fileInTheWay,
  foldersToBe,
  newTransfer,
  receiveTops,
  type TransferPlan,
} from "./start.service";
import type { NewTransfer } from "./transfers.repository";

type Totals = { files: number; bytes: number };

/** start.service's receiveTotals: each source through the files' PG reads (404 with its path). */
async function receiveTotals(c: PgClient, workspaceId: string, plan: TransferPlan, now: number) {
  const totals = { files: 0, bytes: 0 };
  for (const p of receiveTops(plan)) {
    const entry = await live(c, workspaceId, p, now);
    const size = entry.is_file ? { files: 1, bytes: entry.size } : await subtreeTotalsPg(c, entry);
    totals.files += size.files;
    totals.bytes += size.bytes;
  }
  return totals;
}

/**
 * The node for the new transfer, as leastBusyNode counts load. With a capacity, every create
 * weighs it under one lock of its own: the workspace's lock alone would let two workspaces'
 * creates both take a node's last place.
 */
async function nodeFor(c: PgClient, config: AppDeps["config"], now: number) {
  if (!weighsLoad(config)) return chooseNode(config, []);
  if (config.nodeMaxTransfers > 0)
    await c.query("SELECT pg_advisory_xact_lock(hashtextextended('transfers:node-load', 0))");
  const { rows } = await c.query<{ node: string; live: number }>(
    `SELECT node, count(*) AS live FROM transfers
     WHERE node IS NOT NULL AND status IN ('queued', 'running', 'paused')
       AND CASE WHEN token_used_at IS NULL THEN token_expires_at >= $1
         ELSE last_activity_at >= $2 END
     GROUP BY node`,
    [now, now - NODE_PLACE_IDLE_MS],
  );
  return chooseNode(config, rows);
}

/** transfers.repository's insertTransfer: the row, then its paths in one statement. */
async function insertTransferPg(
  c: PgClient,
  row: NewTransfer,
  paths: { source: string; destination: string }[],
) {
  await insertRowPg(c, "transfers", { ...row, status: "queued", updated_at: row.created_at });
  await c.query(
    `INSERT INTO transfer_paths (transfer_id, idx, source, destination)
     SELECT $1, p.ord - 1, p.source, p.destination
     FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS p(source, destination, ord)`,
    [row.id, paths.map((p) => p.source), paths.map((p) => p.destination)],
  );
}

/**
 * start.service's openTransfer on PostgreSQL, on the unit's client: under the workspace's lock
 * (the tree it reads stays as read until the row is in), the same checks in the same order, the
 * same row. Callable inside another area's unit (a portal's upload start holds the lock already;
 * an advisory lock taken twice by one transaction is simply held).
 */
export async function openTransferPg(
  c: PgClient,
  config: AppDeps["config"],
  caller: Caller,
  plan: TransferPlan,
  at: { now: number; snapshotTotals?: Totals },
): Promise<CreatedTransfer> {
  const ws = caller.workspaceId;
  const { now } = at;
  await lockWorkspace(c, ws);
  if (plan.send)
    for (const folder of foldersToBe(plan))
      if ((await byPath(c, ws, folder))?.is_file) throw fileInTheWay(folder);
  const totals = plan.send
    ? declaredTotals(plan)
    : (at.snapshotTotals ?? (await receiveTotals(c, ws, plan, now)));
  const node = await nodeFor(c, config, now);
  const { row, created } = newTransfer(config, caller, plan, { totals, node, now });
  await insertTransferPg(c, row, plan.sides.paths);
  return created;
}
