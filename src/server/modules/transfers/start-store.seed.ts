import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { moveRows } from "@/server/db/pg/move-rows";
import type { PgPool } from "@/server/db/pg/pool";
import { type Config, testConfig } from "@/server/env";
import { ManualClock } from "@/server/lib/clock";
import { createLogger } from "@/server/lib/logger";
import { PgEventRecorder } from "@/server/modules/events/events.pg";
import { EventRecorder } from "@/server/modules/events/events.repository";
import * as entries from "@/server/modules/files/files.repository";
import { freshPgDatabase } from "@/server/testing/pg-database";
import { JobRunner } from "@/server/workers/job-runner";
import { grantFor, type TransferGrant } from "./transfer-access";
import { grantForPg } from "./transfer-access.pg";
import type { TransferClaims } from "./transfer-token";
import { SqliteTransfersStore, type TransfersStore } from "./transfers-store";
import { PgTransfersStore } from "./transfers-store.pg";
import { NOW, seedSqlite, T0, transfer } from "./transfers-store.seed";

/* The engines start-store.test.ts and transfers-store.pg.test.ts create transfers on. */

export const N1 = "https://n1.test";
export const N2 = "https://n2.test";

/** A config of its own data dir (where tokens' signing key is made), removed after the file. */
export function keyedConfig(overrides: Partial<Config> = {}): () => Config {
  let config: Config;
  beforeAll(() => {
    config = testConfig(fs.mkdtempSync(path.join(os.tmpdir(), "consign-transfers-key-")), {
      publicUrl: "https://consign.test",
      ...overrides,
    });
  });
  afterAll(() => fs.rmSync(config.dataDir, { recursive: true, force: true }));
  return () => config;
}

const file = (size: number) => ({ size, mime: null, sha256: `${size}`.padStart(64, "0") });

/**
 * transfers-store.seed's rows, a second workspace, a tree (`plates` with three files, one a
 * level down; `notes.txt` at the root) and a live transfer on N1 (queued, its token unused and
 * within its start window).
 */
export function seedTree() {
  return seedSqlite((add, db) => {
    db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES ('ws2', 'W2', 0)").run();
    const root = entries.root(db, "ws", T0);
    const plates = entries.insert(db, root, "plates", null, T0);
    entries.insert(db, plates, "a.exr", file(10), T0);
    entries.insert(db, plates, "b.exr", file(20), T0);
    entries.insert(db, entries.insert(db, plates, "sub", null, T0), "c.exr", file(30), T0);
    entries.insert(db, root, "notes.txt", file(5), T0);
    add(transfer("live1", T0 + 5, { node: N1, token_expires_at: NOW + 60_000 }), []);
  });
}

/** One engine's store on seedTree's rows, and a query on its database. */
export interface StartEngine {
  store: TransfersStore;
  /** The node's check of a token against its transfer (grantFor, grantForPg). */
  grant(claims: TransferClaims, now: number): Promise<TransferGrant>;
  rows(sql: string): Promise<Record<string, unknown>[]>;
}

const silent = createLogger("silent");

export function sqliteStart(config: () => Config): () => StartEngine {
  let seeded: ReturnType<typeof seedTree>;
  let store: SqliteTransfersStore;
  beforeAll(() => {
    seeded = seedTree();
    const clock = new ManualClock(NOW);
    const { db } = seeded;
    const jobs = new JobRunner(db, clock, silent);
    const events = new EventRecorder(db, clock);
    store = new SqliteTransfersStore({ db, clock, events, jobs, config: config() });
  });
  afterAll(() => seeded.close());
  return () => ({
    store,
    grant: async (claims, now) => grantFor(seeded.db, claims, now),
    rows: async (sql) => seeded.db.prepare(sql).all() as Record<string, unknown>[],
  });
}

/** The same rows moved from an identically seeded SQLite file. */
export function postgresStart(config: () => Config): () => StartEngine {
  const pool = freshPgDatabase({ locale: "en-US" });
  let store: PgTransfersStore;
  beforeAll(async () => {
    const source = seedTree();
    await moveRows(source.db, pool());
    store = pgStartStore(pool(), config(), source.db);
    source.close();
  });
  return () => ({
    store,
    grant: (claims, now) => grantForPg(pool(), claims, now),
    rows: async (sql) => (await pool().query(sql)).rows,
  });
}

/** A PostgreSQL store at NOW; `jobsDb` only lets the runner shape jobs (none are run). */
export function pgStartStore(
  pool: PgPool,
  config: Config,
  jobsDb: ConstructorParameters<typeof JobRunner>[0],
) {
  const clock = new ManualClock(NOW);
  return new PgTransfersStore(
    pool,
    clock,
    new PgEventRecorder(clock),
    new JobRunner(jobsDb, clock, silent),
    config,
  );
}
