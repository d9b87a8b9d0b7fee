import type { Operation } from "@/contract/operations";
import type { AppDeps } from "@/server/deps";
import { cancelOperation, getOperation, listOperations } from "./operations.service";

/**
 * The operations area's port (docs/scale-out.md, Moves and copies): one async call per unit.
 * SQLite's implementation runs operations.service.ts inside the call; PostgreSQL's is
 * operations-store.pg.ts, and both answer alike (operations-store.test.ts). Planning a job
 * (POST) and the worker's steps still run on SQLite (they read and change the files tree);
 * operations.pg.ts holds the one move a portal's approval starts on PostgreSQL.
 */
export interface OperationsStore {
  /** Newest first, each with its items; `active` keeps the queued and running ones. */
  listOperations(workspaceId: string, q: { active?: boolean; limit: number }): Promise<Operation[]>;
  /** 404 `not_found` with `details.jobId`. */
  getOperation(workspaceId: string, id: string): Promise<Operation>;
  /**
   * Ends a queued or running job: the worker checks the status before each item, so nothing
   * after this commit starts. A cancelled job answers as it is; an ended one is refused.
   */
  cancelOperation(workspaceId: string, id: string): Promise<Operation>;
}

export class SqliteOperationsStore implements OperationsStore {
  constructor(private readonly deps: () => AppDeps) {}

  async listOperations(workspaceId: string, q: { active?: boolean; limit: number }) {
    return listOperations(this.deps(), workspaceId, q);
  }

  async getOperation(workspaceId: string, id: string) {
    return getOperation(this.deps(), workspaceId, id);
  }

  async cancelOperation(workspaceId: string, id: string) {
    return cancelOperation(this.deps(), workspaceId, id);
  }
}
