import type {
  CreatedTransfer,
  Transfer,
  TransferState,
  UpdateTransferBody,
} from "@/contract/transfers";
import type { Caller } from "@/server/http/caller";
import {
  type CreateInput,
  createTransfer,
  type StartDeps,
  type StartTransferInput,
  startTransfer,
} from "./start.service";
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
 * implementation runs transfers.service.ts and start.service.ts inside the call; PostgreSQL's is
 * transfers-store.pg.ts with start.pg.ts, and both answer alike (transfers-store.test.ts,
 * start-store.test.ts).
 */
export interface TransfersStore {
  /**
   * POST /transfers: the transfer stored `queued` with its paths, and its spec with the token
   * (shown only here). Refusals: `file_in_the_way`, a receive's missing source (404,
   * `details.path`), `send_only`, `path_rejected`, 429 `node_busy`.
   */
  createTransfer(caller: Caller, body: CreateInput): Promise<CreatedTransfer>;
  /**
   * A start from another module's page that writes nothing else (a share's download). A portal's
   * upload writes its own row with the transfer: its PostgreSQL unit calls openTransferPg.
   */
  startTransfer(caller: Caller, input: StartTransferInput): Promise<CreatedTransfer>;
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
  constructor(private readonly deps: TransferDeps & StartDeps) {}

  async createTransfer(caller: Caller, body: CreateInput) {
    return createTransfer(this.deps, caller, body);
  }

  async startTransfer(caller: Caller, input: StartTransferInput) {
    return startTransfer(this.deps, caller, input);
  }

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
