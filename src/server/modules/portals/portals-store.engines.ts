import fs from "node:fs";
import { afterAll, beforeAll } from "vitest";
import { createPortalBodySchema, type Portal } from "@/contract/portals";
import { moveRows } from "@/server/db/pg/move-rows";
import { type Config, testConfig } from "@/server/env";
import type { Caller } from "@/server/http/caller";
import { ManualClock } from "@/server/lib/clock";
import { PgAccessStore } from "@/server/modules/auth/access-store.pg";
import { freshPgDatabase } from "@/server/testing/pg-database";
import { type PortalPublicStore, SqlitePortalPublicStore } from "./portal-public-store";
import { PgPortalPublicStore } from "./portal-public-store.pg";
import { type PortalsStore, SqlitePortalsStore } from "./portals-store";
import type { PgPortalsStore } from "./portals-store.pg";
import { pgStore, REVIEWER, seedPortals, T0, tempDir, WS } from "./portals-store.seed";

/* The two engines the portals store's contract runs on (portals-store.test.ts, portal-writes.test.ts). */

/**
 * One engine's stores over the seeded rows (the console's and the portal page's), the settings
 * they sign tokens with, and a read of any table, as both engines read it.
 */
export interface Engine {
  store: PortalsStore;
  page: PortalPublicStore;
  config: Config;
  rows(sql: string): Promise<Record<string, unknown>[]>;
}

export const caller: Caller = {
  workspaceId: WS,
  keyId: "k1",
  memberId: REVIEWER,
  origin: "https://c.test",
};
export const NOW = T0 + 3_600_000;

export function sqliteEngine(): () => Engine {
  let seeded: ReturnType<typeof seedPortals>;
  beforeAll(() => {
    seeded = seedPortals(new ManualClock(NOW));
  });
  afterAll(() => seeded.close());
  return () => ({
    store: new SqlitePortalsStore(() => seeded.deps),
    page: new SqlitePortalPublicStore(() => seeded.deps),
    config: seeded.deps.config,
    rows: async (sql) => seeded.deps.db.prepare(sql).all() as Record<string, unknown>[],
  });
}

/**
 * The same rows, moved from an identically seeded SQLite database (ids included), in a database
 * whose default collation is en-US, as on most installed servers.
 */
export function postgresEngine(): () => Engine {
  const pool = freshPgDatabase({ locale: "en-US" });
  let store: PgPortalsStore;
  let page: PgPortalPublicStore;
  let dir: string;
  beforeAll(async () => {
    const source = seedPortals();
    await moveRows(source.deps.db, pool());
    source.close();
    dir = tempDir();
    const clock = new ManualClock(NOW);
    store = pgStore(pool(), clock, dir);
    const accessStore = new PgAccessStore(pool());
    page = new PgPortalPublicStore({ pool: pool(), clock, config: testConfig(dir), accessStore });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return () => ({
    store,
    page,
    config: testConfig(dir),
    rows: async (sql) => (await pool().query(sql)).rows,
  });
}

export const EVENTS = "SELECT type, data FROM events WHERE workspace_id = 'ws' ORDER BY seq";
export const events = async (e: Engine) =>
  (await e.rows(EVENTS)).map((r) => ({ type: r.type, data: JSON.parse(r.data as string) }));
export const review = (
  e: Engine,
  portalId: string,
  uploadId: string,
  decision: "approved" | "rejected" | "pending",
  extra = {},
) => e.store.reviewUpload(caller, portalId, uploadId, { decision, ...extra });

export const createBody = (over: Record<string, unknown> = {}) =>
  createPortalBodySchema.parse({
    title: "Grade Notes",
    targetPath: "Incoming/notes",
    inviteEmails: ["a@x.test", "a@x.test", "b@x.test"],
    invitePhones: ["+15550001"],
    ...over,
  });

/** A portal's answer without what each engine draws at random (id, slug, link). */
export const drawn = ({ id: _, slug: __, url: ___, ...rest }: Portal) => rest;

/** Each suite runs once per engine: `describe.each(ENGINES)`. */
export const ENGINES = [
  { engine: "SQLite", use: sqliteEngine },
  { engine: "PostgreSQL", use: postgresEngine },
];
