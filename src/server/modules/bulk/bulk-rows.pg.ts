import type { PgClient, PgPool } from "@/server/db/pg/pool";
import type { BulkJobRow } from "./bulk.repository";
import type { Lease } from "./bulk-store";

/* bulk.repository.ts's statements on PostgreSQL, for PgBulkStore and its batches. */

type Queryable = PgPool | PgClient;

export const bulkJobRowPg = async (c: Queryable, id: string) =>
  (await c.query<BulkJobRow>("SELECT * FROM bulk_jobs WHERE id = $1", [id])).rows[0];

export const bulkJobPg = async (c: Queryable, workspaceId: string, id: string) =>
  (
    await c.query<BulkJobRow>("SELECT * FROM bulk_jobs WHERE id = $1 AND workspace_id = $2", [
      id,
      workspaceId,
    ])
  ).rows[0];

/** Newest first; `active` keeps the queued and running ones. */
export const listBulkJobsPg = async (
  c: Queryable,
  workspaceId: string,
  active: boolean,
  limit: number,
) =>
  (
    await c.query<BulkJobRow>(
      `SELECT * FROM bulk_jobs WHERE workspace_id = $1 AND ($2 = 0 OR status IN ('queued', 'running'))
       ORDER BY created_at DESC, id DESC LIMIT $3`,
      [workspaceId, active ? 1 : 0, limit],
    )
  ).rows;

export const insertBulkJobPg = (
  c: PgClient,
  r: Pick<
    BulkJobRow,
    "id" | "workspace_id" | "action" | "selection" | "folder_id" | "undo_of" | "created_at"
  >,
) =>
  c.query(
    `INSERT INTO bulk_jobs (id, workspace_id, action, status, selection, folder_id, undo_of, created_at)
     VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7)`,
    [r.id, r.workspace_id, r.action, r.selection, r.folder_id, r.undo_of, r.created_at],
  );

/** A batch's outcome: written in the transaction that did the batch's work. */
export const saveProgressPg = (c: PgClient, r: BulkJobRow) =>
  c.query(
    `UPDATE bulk_jobs SET status = $1, total = $2, done = $3, failed = $4, failures = $5,
       sample = $6, cursor = $7, started_at = $8, finished_at = $9
     WHERE id = $10`,
    [
      r.status,
      r.total,
      r.done,
      r.failed,
      r.failures,
      r.sample,
      r.cursor,
      r.started_at,
      r.finished_at,
      r.id,
    ],
  );

export const endBulkJobPg = async (
  c: PgClient,
  id: string,
  status: "cancelled" | "failed",
  now: number,
  error: string | null = null,
) =>
  (
    await c.query(
      `UPDATE bulk_jobs SET status = $1, finished_at = $2, error = $3
       WHERE id = $4 AND status IN ('queued', 'running')`,
      [status, now, error, id],
    )
  ).rowCount! > 0;

export const markUndonePg = (c: PgClient, id: string, undoneBy: string) =>
  c.query("UPDATE bulk_jobs SET undone_by = $1 WHERE id = $2", [undoneBy, id]);

/** leaseHeld: the runner's lease on its job, in PostgreSQL's queue (jobs.pg.ts). */
export const leaseHeldPg = async (c: PgClient, lease: Lease) =>
  (
    await c.query("SELECT 1 FROM jobs WHERE id = $1 AND lease_owner = $2 AND status = 'running'", [
      lease.runnerJobId,
      lease.owner,
    ])
  ).rowCount! > 0;
