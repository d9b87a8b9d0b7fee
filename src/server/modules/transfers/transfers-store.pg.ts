import { terminalTransferStates, type UpdateTransferBody } from "@/contract/transfers";
import { type PgClient, type PgPool, withPgTransaction } from "@/server/db/pg/pool";
import type { AppDeps } from "@/server/deps";
import type { Caller } from "@/server/http/caller";
import type { Clock } from "@/server/lib/clock";
import type { PgEventRecorder } from "@/server/modules/events/events.pg";
import type { AnnouncedEvent } from "@/server/modules/events/events.repository";
import type { JobRunner } from "@/server/workers/job-runner";
import { insertJob } from "@/server/workers/jobs.pg";
import { openTransferPg } from "./start.pg";
import {
  type CreateInput,
  planTransfer,
  type StartTransferInput,
  startBody,
} from "./start.service";
import type { TransferPathRow, TransferRow } from "./transfers.repository";
import {
  checkCompleted,
  checkCounters,
  checkTransition,
  deliverJob,
  EVENT_PATHS,
  LIST_PATHS,
  needsDelivery,
  progressOf,
  RECORD_PATHS,
  terminalEvent,
  transferNotFound,
  transferView,
} from "./transfers.service";
import type { TransferQuery, TransfersStore } from "./transfers-store";

type Db = PgPool | PgClient;
type RowWithUsage = TransferRow & { usage_bytes: number };

/** A transfer's row and its usage's bytes, in one statement. */
const SELECT = `SELECT t.*, (SELECT coalesce(sum(bytes), 0)::bigint FROM usage_records u
  WHERE u.usage_id = t.usage_id) AS usage_bytes FROM transfers t`;

/** Each transfer's first `limit` paths, for many transfers in one statement. */
async function firstPaths(db: Db, ids: string[], limit: number) {
  const { rows } = await db.query<TransferPathRow>(
    `SELECT transfer_id, idx, source, destination FROM (
       SELECT p.*, row_number() OVER (PARTITION BY transfer_id ORDER BY idx) AS n
       FROM transfer_paths p WHERE transfer_id = ANY($1::text[])) s
     WHERE n <= $2 ORDER BY transfer_id, idx`,
    [ids, limit],
  );
  const by = new Map<string, TransferPathRow[]>(ids.map((id) => [id, []]));
  for (const r of rows) by.get(r.transfer_id)!.push(r);
  return by;
}

async function views(db: Db, rows: RowWithUsage[], pathsShown: number) {
  const paths = await firstPaths(
    db,
    rows.map((r) => r.id),
    pathsShown,
  );
  return rows.map((r) => {
    const { usage_bytes, ...row } = r;
    return transferView(row, paths.get(r.id)!, usage_bytes);
  });
}

/**
 * Transfers on PostgreSQL (docs/scale-out.md, Transfers). A create is start.pg.ts's unit, under
 * the workspace's lock. A read is two statements (the rows
 * with their usage, then their first paths). A progress report locks its transfer's row
 * (`FOR UPDATE`: the node's commits of the same send update it too, so they queue), checks and
 * writes as SQLite's does, queues the deliverTo copies and records its event last, all in one
 * transaction; the event is announced after the commit.
 */
export class PgTransfersStore implements TransfersStore {
  constructor(
    private readonly pool: PgPool,
    private readonly clock: Clock,
    private readonly events: PgEventRecorder,
    private readonly jobs: Pick<JobRunner, "newJob">,
    private readonly config: AppDeps["config"],
  ) {}

  async createTransfer(caller: Caller, body: CreateInput) {
    const plan = planTransfer(body);
    return withPgTransaction(this.pool, (c) =>
      openTransferPg(c, this.config, caller, plan, { now: this.clock.now() }),
    );
  }

  async startTransfer(caller: Caller, input: StartTransferInput) {
    const { body, totals } = startBody(input);
    const plan = planTransfer(body);
    return withPgTransaction(this.pool, (c) =>
      openTransferPg(c, this.config, caller, plan, {
        now: this.clock.now(),
        snapshotTotals: totals,
      }),
    );
  }

  async listTransfers(workspaceId: string, q: TransferQuery) {
    const where = ["t.workspace_id = $1"];
    const params: unknown[] = [workspaceId];
    if (q.status) where.push(`t.status = $${params.push(q.status)}`);
    if (q.direction) where.push(`t.direction = $${params.push(q.direction)}`);
    if (q.active) where.push("t.status IN ('queued', 'running', 'paused')");
    const { rows } = await this.pool.query<RowWithUsage>(
      `${SELECT} WHERE ${where.join(" AND ")}
       ORDER BY t.created_at DESC, t.id DESC LIMIT $${params.push(q.limit)}`,
      params,
    );
    return views(this.pool, rows, LIST_PATHS);
  }

  async getTransfer(workspaceId: string, id: string) {
    const row = await this.row(this.pool, workspaceId, id);
    return (await views(this.pool, [row], RECORD_PATHS))[0]!;
  }

  async updateTransfer(workspaceId: string, id: string, body: UpdateTransferBody) {
    let announced: AnnouncedEvent | null = null;
    const transfer = await withPgTransaction(this.pool, async (c) => {
      const now = this.clock.now();
      const row = await this.row(c, workspaceId, id, " FOR UPDATE OF t");
      const to = body.status;
      checkTransition(row, to);
      const totals = checkCounters(row, body);
      if (to === "completed") {
        const inFlight = row.direction === "send" ? await this.uploadsInFlight(c, id) : 0;
        checkCompleted(row, body, totals.filesTotal, inFlight);
      }
      const p = progressOf(row, body, totals, now);
      await c.query(
        `UPDATE transfers SET status = $2, files_done = $3, bytes_done = $4, files_total = $5,
           bytes_total = $6, rate_kbps = $7, avg_rate_kbps = $8, error_code = $9,
           error_message = $10, started_at = $11, finished_at = $12, updated_at = $13
         WHERE id = $1`,
        [
          id,
          p.status,
          p.files_done,
          p.bytes_done,
          p.files_total,
          p.bytes_total,
          p.rate_kbps,
          p.avg_rate_kbps,
          p.error_code,
          p.error_message,
          p.started_at,
          p.finished_at,
          p.updated_at,
        ],
      );
      const updated = { ...row, ...p };
      const terminal = terminalTransferStates.includes(to);
      if (terminal && row.direction === "send" && to !== "completed") {
        await c.query(
          `UPDATE transfer_uploads SET status = 'cancelled', updated_at = $1
           WHERE transfer_id = $2 AND status = 'uploading'`,
          [now, id],
        );
      }
      if (needsDelivery(updated)) await insertJob(c, this.jobs.newJob(...deliverJob(id)));
      const [shown] = await views(c, [updated], RECORD_PATHS);
      if (terminal) announced = await this.report(c, updated);
      return shown!;
    });
    if (announced) this.events.announce(announced);
    return transfer;
  }

  private async row(db: Db, workspaceId: string, id: string, lock = "") {
    const { rows } = await db.query<RowWithUsage>(
      `${SELECT} WHERE t.workspace_id = $1 AND t.id = $2${lock}`,
      [workspaceId, id],
    );
    if (!rows[0]) throw transferNotFound(id);
    return rows[0];
  }

  private async uploadsInFlight(c: PgClient, id: string) {
    const { rows } = await c.query<{ n: number }>(
      "SELECT count(*) AS n FROM transfer_uploads WHERE transfer_id = $1 AND status = 'uploading'",
      [id],
    );
    return rows[0]!.n;
  }

  /** The terminal event, once per transfer (`reported`), as the unit's last write. */
  private async report(c: PgClient, row: TransferRow) {
    if (row.status === "cancelled") return null;
    const marked = await c.query(
      "UPDATE transfers SET reported = 1 WHERE id = $1 AND reported = 0",
      [row.id],
    );
    if (marked.rowCount !== 1) return null;
    const paths =
      row.status === "completed" ? (await firstPaths(c, [row.id], EVENT_PATHS)).get(row.id)! : [];
    const event = terminalEvent(row, () => paths);
    return event && this.events.write(c, row.workspace_id, event.type, event.data);
  }
}
