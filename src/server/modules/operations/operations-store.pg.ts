import type { Operation } from "@/contract/operations";
import { lockWorkspace, type PgClient, type PgPool, withPgTransaction } from "@/server/db/pg/pool";
import type { Clock } from "@/server/lib/clock";
import { cancelOperationPg } from "./operations.pg";
import type { OperationItemRow, OperationRow } from "./operations.repository";
import { checkCancellable, noOperation, toOperation } from "./operations.service";
import type { OperationsStore } from "./operations-store";

type Queryable = PgPool | PgClient;

/**
 * Moves' and copies' reads and cancel on PostgreSQL (docs/scale-out.md, Moves and copies). The
 * cancel holds the workspace's lock, as SQLite's BEGIN IMMEDIATE does, so it never interleaves
 * with a unit of the same workspace that reads the job's status and then writes.
 */
export class PgOperationsStore implements OperationsStore {
  constructor(
    private readonly pool: PgPool,
    private readonly clock: Clock,
  ) {}

  async listOperations(workspaceId: string, q: { active?: boolean; limit: number }) {
    const { rows } = await this.pool.query<OperationRow>(
      `SELECT * FROM file_operations
       WHERE workspace_id = $1 AND ($2 = 0 OR status IN ('queued', 'running'))
       ORDER BY created_at DESC, id DESC LIMIT $3`,
      [workspaceId, q.active === true ? 1 : 0, q.limit],
    );
    const items = await itemsOf(
      this.pool,
      rows.map((r) => r.id),
    );
    return rows.map((r) => toOperation(r, items.get(r.id) ?? []));
  }

  getOperation(workspaceId: string, id: string) {
    return operation(this.pool, workspaceId, id);
  }

  cancelOperation(workspaceId: string, id: string) {
    return withPgTransaction(this.pool, async (c) => {
      await lockWorkspace(c, workspaceId);
      checkCancellable(id, await operationRow(c, workspaceId, id));
      await cancelOperationPg(c, id, this.clock.now());
      return operation(c, workspaceId, id);
    });
  }
}

const operationRow = async (c: Queryable, workspaceId: string, id: string) =>
  (
    await c.query<OperationRow>(
      "SELECT * FROM file_operations WHERE id = $1 AND workspace_id = $2",
      [id, workspaceId],
    )
  ).rows[0];

async function operation(c: Queryable, workspaceId: string, id: string): Promise<Operation> {
  const row = await operationRow(c, workspaceId, id);
  if (!row) throw noOperation(id);
  return toOperation(row, (await itemsOf(c, [id])).get(id) ?? []);
}

/** The jobs' items, each job's in order, in one statement. */
async function itemsOf(c: Queryable, ids: string[]) {
  const { rows } = await c.query<OperationItemRow>(
    "SELECT * FROM file_operation_items WHERE operation_id = ANY($1::text[]) ORDER BY operation_id, idx",
    [ids],
  );
  const by = new Map<string, OperationItemRow[]>();
  for (const item of rows) by.set(item.operation_id, [...(by.get(item.operation_id) ?? []), item]);
  return by;
}
