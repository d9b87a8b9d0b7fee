import type { Transfer, TransferState, UpdateTransferBody } from "@/contract/transfers";
import { getTransfer, listTransfers, type TransferDeps, updateTransfer } from "./transfers.service";

/** The list's filters, each applied only when given; newest first. */
export interface TransferQuery {
  status?: TransferState;
  direction?: "send" | "receive";
  active?: boolean;
  limit: number;
}

/**
 * The transfers area's port (docs/scale-out.md, Transfers): one async call per unit. SQLite's
 * implementation runs transfers.service.ts inside the call; PostgreSQL's is
 * transfers-store.pg.ts, and both answer alike (transfers-store.test.ts). Creating a transfer
 * still goes through start.service.ts on SQLite (it reads the files tree and the nodes' load).
 */
export interface TransfersStore {
  listTransfers(workspaceId: string, q: TransferQuery): Promise<Transfer[]>;
  /** 404 `not_found` with `details.transferId`. */
  getTransfer(workspaceId: string, id: string): Promise<Transfer>;
  /**
   * An engine's progress report, checked against the state machine, the stored counters and
   * what the node did; a terminal move records its event and a completed send with deliverTo
   * queues its copies, in the same transaction.
   */
  updateTransfer(workspaceId: string, id: string, body: UpdateTransferBody): Promise<Transfer>;
}

export class SqliteTransfersStore implements TransfersStore {
  constructor(private readonly deps: TransferDeps) {}

  async listTransfers(workspaceId: string, q: TransferQuery) {
    return listTransfers(this.deps, workspaceId, q);
  }

  async getTransfer(workspaceId: string, id: string) {
    return getTransfer(this.deps, workspaceId, id);
  }

  async updateTransfer(workspaceId: string, id: string, body: UpdateTransferBody) {
    return updateTransfer(this.deps, workspaceId, id, body);
  }
}
