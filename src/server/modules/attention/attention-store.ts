import type { Attention } from "@/contract/attention";
import type { AttentionSection } from "@/contract/attention-rules";
import type { Scope } from "@/contract/common";
import { DISABLE_AFTER_FAILURES } from "@/contract/rules";
import type { Db } from "@/server/db/database";
import type { Clock } from "@/server/lib/clock";
import {
  awaitingUploads,
  disabledEndpoints,
  expiringUnopenedShares,
  failedDownloads,
  failedJobs,
} from "./attention.repository";
import {
  type AttentionRows,
  type AttentionWindows,
  attentionOf,
  attentionWindows,
  readableSections,
} from "./attention.service";

/**
 * The needs-attention summary's port (docs/scale-out.md, Attention): one read of every section
 * the key's scopes may read, in one snapshot so the sections and the total agree. SQLite's
 * implementation runs today's statements in one transaction; PostgreSQL's is
 * attention-store.pg.ts, and both answer alike (attention-store.test.ts).
 */
export interface AttentionStore {
  read(workspaceId: string, scopes: readonly Scope[], limit: number): Promise<Attention>;
}

const readers: {
  [K in AttentionSection]: (db: Db, ws: string, w: AttentionWindows) => AttentionRows[K];
} = {
  uploads: (db, ws, w) => awaitingUploads(db, ws, w.limit),
  failedDownloads: (db, ws, w) => failedDownloads(db, ws, w.limit),
  expiringShares: (db, ws, w) => expiringUnopenedShares(db, ws, w.expiring, w.limit),
  disabledEndpoints: (db, ws, w) => disabledEndpoints(db, ws, DISABLE_AFTER_FAILURES, w.limit),
  failedJobs: (db, ws, w) => failedJobs(db, ws, w.failedSince, w.limit),
};

export class SqliteAttentionStore implements AttentionStore {
  private readonly readAll: (ws: string, scopes: readonly Scope[], limit: number) => Attention;

  constructor(db: Db, clock: Clock) {
    this.readAll = db.transaction((ws: string, scopes: readonly Scope[], limit: number) => {
      const w = attentionWindows(clock.now(), limit);
      const rows: Partial<AttentionRows> = {};
      for (const name of readableSections(scopes)) {
        Object.assign(rows, { [name]: readers[name](db, ws, w) });
      }
      return attentionOf(rows);
    });
  }

  async read(workspaceId: string, scopes: readonly Scope[], limit: number) {
    return this.readAll(workspaceId, scopes, limit);
  }
}
