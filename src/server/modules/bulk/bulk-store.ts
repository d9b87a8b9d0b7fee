import type { BulkJob, CreateBulkJobBody } from "@/contract/operations";
import type { AppDeps } from "@/server/deps";
import { leaseHeld } from "./bulk.repository";
import {
  cancelBulkJob,
  createBulkJob,
  getBulkJob,
  listBulkJobs,
  undoBulkJob,
} from "./bulk.service";
import { failBulkJob, runBatch } from "./bulk-batch";
import type { BatchRunner } from "./bulk-selection";

/** The runner's lease a batch runs under: the runner's job id and the lease's owner. */
export interface Lease {
  runnerJobId: string;
  owner: string;
}

/**
 * The bulk area's port (docs/scale-out.md, Bulk work): one async call per unit, a job's batch
 * being one. SQLite's implementation runs bulk.service.ts and bulk-batch.ts inside the call;
 * PostgreSQL's is bulk-store.pg.ts, and both answer alike (bulk-store.test.ts).
 */
export interface BulkStore {
  /** Stores the job and queues its runner's job in the same transaction. */
  createBulkJob(workspaceId: string, body: CreateBulkJobBody): Promise<BulkJob>;
  listBulkJobs(workspaceId: string, active: boolean, limit: number): Promise<BulkJob[]>;
  /** 404 `not_found` with `details.jobId`. */
  getBulkJob(workspaceId: string, id: string): Promise<BulkJob>;
  /** Ends a queued or running job and records its event; `not_cancellable` once it ended. */
  cancelBulkJob(workspaceId: string, id: string): Promise<BulkJob>;
  /** A queued restore job of what a trash job trashed; `not_undoable` otherwise. */
  undoBulkJob(workspaceId: string, id: string): Promise<BulkJob>;
  /**
   * The job's next batch in one transaction, while `lease` (when given) is still held. True
   * while there is more to do; false once the job has ended, or the lease was lost.
   */
  runBatch(runner: BatchRunner, id: string, lease?: Lease): Promise<boolean>;
  /** Ends a job its runner gave up on, recording its event; what was done stays done. */
  failBulkJob(id: string, message: string): Promise<void>;
}

export class SqliteBulkStore implements BulkStore {
  constructor(private readonly deps: () => AppDeps) {}

  async createBulkJob(workspaceId: string, body: CreateBulkJobBody) {
    return createBulkJob(this.deps(), workspaceId, body);
  }

  async listBulkJobs(workspaceId: string, active: boolean, limit: number) {
    return listBulkJobs(this.deps(), workspaceId, active, limit);
  }

  async getBulkJob(workspaceId: string, id: string) {
    return getBulkJob(this.deps(), workspaceId, id);
  }

  async cancelBulkJob(workspaceId: string, id: string) {
    return cancelBulkJob(this.deps(), workspaceId, id);
  }

  async undoBulkJob(workspaceId: string, id: string) {
    return undoBulkJob(this.deps(), workspaceId, id);
  }

  async runBatch(runner: BatchRunner, id: string, lease?: Lease) {
    const deps = this.deps();
    const ours = lease && (() => leaseHeld(deps.db, lease.runnerJobId, lease.owner));
    return runBatch(deps, runner, id, ours);
  }

  async failBulkJob(id: string, message: string) {
    failBulkJob(this.deps(), id, message);
  }
}
