import type { BulkAction, BulkJob, CreateBulkJobBody } from "@/contract/operations";
import { lockWorkspace, type PgClient, type PgPool, withPgTransaction } from "@/server/db/pg/pool";
import { notFound } from "@/server/lib/api-error";
import type { Clock } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import type { PgEventRecorder } from "@/server/modules/events/events.pg";
import type { AnnouncedEvent } from "@/server/modules/events/events.repository";
import { liveFolder } from "@/server/modules/files/tree.pg";
import type { JobRunner } from "@/server/workers/job-runner";
import { insertJob } from "@/server/workers/jobs.pg";
import { type BulkJobRow, bulkJobView } from "./bulk.repository";
import {
  bulkRunnerJob,
  checkUndoable,
  mustCancel,
  selectedFolder,
  storedSelection,
} from "./bulk.service";
import { runBatchPg, writeEnd } from "./bulk-batch.pg";
import {
  bulkJobPg,
  bulkJobRowPg,
  endBulkJobPg,
  insertBulkJobPg,
  listBulkJobsPg,
  markUndonePg,
} from "./bulk-rows.pg";
import type { BatchRunner, StoredSelection } from "./bulk-selection";
import type { BulkStore, Lease } from "./bulk-store";

/**
 * Bulk jobs on PostgreSQL (docs/scale-out.md, Bulk work). Every unit that reads then writes
 * holds its workspace's lock (SQLite's BEGIN IMMEDIATE), so a cancel and a batch never
 * interleave; the runner's job is inserted, and the job's event written last, in the unit's
 * transaction. Unreferenced blobs a delete or purge leaves are the hourly purge's to collect
 * (SQLite's batch collects them at once).
 */
export class PgBulkStore implements BulkStore {
  constructor(
    private readonly pool: PgPool,
    private readonly clock: Clock,
    private readonly events: PgEventRecorder,
    private readonly jobs: Pick<JobRunner, "newJob">,
    private readonly config: { trashRetentionDays: number },
  ) {}

  async createBulkJob(workspaceId: string, body: CreateBulkJobBody) {
    return this.unit(workspaceId, async (c, now) => {
      const at = selectedFolder(body);
      const folder =
        at === null ? null : await liveFolder(c, workspaceId, at, "selection.folder", now);
      const selection = storedSelection(body, folder);
      return this.insert(c, workspaceId, body.action, selection, folder?.id ?? null, null, now);
    });
  }

  async listBulkJobs(workspaceId: string, active: boolean, limit: number) {
    return (await listBulkJobsPg(this.pool, workspaceId, active, limit)).map(bulkJobView);
  }

  async getBulkJob(workspaceId: string, id: string) {
    return bulkJobView(await jobRow(this.pool, workspaceId, id));
  }

  async cancelBulkJob(workspaceId: string, id: string) {
    let announced: AnnouncedEvent | null = null;
    const job = await this.unit(workspaceId, async (c, now) => {
      const row = await jobRow(c, workspaceId, id);
      if (!mustCancel(row)) return bulkJobView(row);
      await endBulkJobPg(c, id, "cancelled", now);
      announced = await writeEnd(c, this.events, row);
      return bulkJobView(await jobRow(c, workspaceId, id));
    });
    if (announced) this.events.announce(announced);
    return job;
  }

  async undoBulkJob(workspaceId: string, id: string) {
    return this.unit(workspaceId, async (c, now) => {
      checkUndoable(await jobRow(c, workspaceId, id));
      const undo = { kind: "undo" as const, jobId: id };
      const job = await this.insert(c, workspaceId, "restore", undo, null, id, now);
      await markUndonePg(c, id, job.id);
      return job;
    });
  }

  async runBatch(runner: BatchRunner, id: string, lease?: Lease) {
    const { more, announced } = await withPgTransaction(this.pool, (c) => {
      const ctx = {
        events: this.events,
        retentionDays: this.config.trashRetentionDays,
        now: this.clock.now(),
      };
      return runBatchPg(c, ctx, runner, id, lease);
    });
    if (announced) this.events.announce(announced);
    return more;
  }

  async failBulkJob(id: string, message: string) {
    const announced = await withPgTransaction(this.pool, async (c) => {
      const found = await bulkJobRowPg(c, id);
      if (!found) return null;
      await lockWorkspace(c, found.workspace_id);
      const row = (await bulkJobRowPg(c, id))!;
      if (!(await endBulkJobPg(c, id, "failed", this.clock.now(), message))) return null;
      return writeEnd(c, this.events, row);
    });
    if (announced) this.events.announce(announced);
  }

  /** bulk.service's insertJob: the job's row and its runner's job, in the unit's transaction. */
  private async insert(
    c: PgClient,
    workspaceId: string,
    action: BulkAction,
    selection: StoredSelection,
    folderId: number | null,
    undoOf: string | null,
    now: number,
  ): Promise<BulkJob> {
    const id = newId(now);
    await insertBulkJobPg(c, {
      id,
      workspace_id: workspaceId,
      action,
      selection: JSON.stringify(selection),
      folder_id: folderId,
      undo_of: undoOf,
      created_at: now,
    });
    await insertJob(c, this.jobs.newJob(...bulkRunnerJob(id)));
    return bulkJobView((await bulkJobRowPg(c, id))!);
  }

  /** A unit that reads then writes the workspace's jobs: one transaction under its lock. */
  private unit<T>(workspaceId: string, fn: (c: PgClient, now: number) => Promise<T>) {
    return withPgTransaction(this.pool, async (c) => {
      await lockWorkspace(c, workspaceId);
      return fn(c, this.clock.now());
    });
  }
}

async function jobRow(c: PgPool | PgClient, workspaceId: string, id: string): Promise<BulkJobRow> {
  const row = await bulkJobPg(c, workspaceId, id);
  if (!row) throw notFound("Bulk job", { jobId: id });
  return row;
}
