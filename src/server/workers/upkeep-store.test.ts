import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/database";
import { moveRows } from "@/server/db/pg/move-rows";
import { ManualClock } from "@/server/lib/clock";
import { PgEventRecorder } from "@/server/modules/events/events.pg";
import { EventRecorder } from "@/server/modules/events/events.repository";
import { freshPgDatabase } from "@/server/testing/pg-database";
import { SqliteUpkeepStore, type UpkeepStore } from "./upkeep-store";
import { PgUpkeepStore } from "./upkeep-store.pg";
import {
  ABANDONED,
  ABANDONED_IDLE,
  DAY,
  EARLY_TRASH,
  LATE_TRASH,
  RETENTION_DAYS,
  SHARE_EXPIRES,
  seedUpkeep,
  T0,
  WS,
} from "./upkeep-store.seed";

type Rows = (sql: string) => Promise<Record<string, unknown>[]>;
interface Engine {
  store: UpkeepStore;
  clock: ManualClock;
  rows: Rows;
}

function sqliteEngine(): () => Engine {
  let seeded: ReturnType<typeof seedUpkeep>;
  let engine: Engine;
  beforeAll(() => {
    seeded = seedUpkeep();
    const db: Db = seeded.db;
    const clock = new ManualClock(T0);
    const events = new EventRecorder(db, clock);
    engine = {
      store: new SqliteUpkeepStore(() => ({ db, clock, events })),
      clock,
      rows: async (sql) => db.prepare(sql).all() as Record<string, unknown>[],
    };
  });
  afterAll(() => seeded.close());
  return () => engine;
}

/** The same rows moved from an identically seeded SQLite file, in an en-US database. */
function postgresEngine(): () => Engine {
  const pool = freshPgDatabase({ locale: "en-US" });
  let engine: Engine;
  beforeAll(async () => {
    const source = seedUpkeep();
    await moveRows(source.db, pool());
    source.close();
    const clock = new ManualClock(T0);
    engine = {
      store: new PgUpkeepStore(pool(), clock, new PgEventRecorder(clock)),
      clock,
      rows: async (sql) => (await pool().query(sql)).rows,
    };
  });
  return () => engine;
}

const TRASH_DUE = T0 + RETENTION_DAYS * DAY;
const counts = (rows: Rows) =>
  rows(
    `SELECT (SELECT count(*) FROM trash_items) AS items, (SELECT count(*) FROM entries) AS entries,
       (SELECT count(*) FROM file_versions) AS versions`,
  );

describe.each([
  { engine: "SQLite", use: sqliteEngine },
  { engine: "PostgreSQL", use: postgresEngine },
])("the upkeep store on $engine", ({ use }) => {
  const open = use();

  it("purges the due trash items in batches, soonest first, and releases each blob reference once", async () => {
    const { store, rows } = open();
    expect(await store.purgeExpiredTrash(TRASH_DUE - 1, 5)).toBe(0);
    const before = await counts(rows);
    expect(before).toEqual([
      { items: EARLY_TRASH + LATE_TRASH, entries: 3 + 2 * 3 + 13, versions: 2 + 13 },
    ]);
    expect(await store.purgeExpiredTrash(TRASH_DUE + 3, 2)).toBe(2);
    // The first two due were the folders: each lost its two files and its one version.
    expect(await counts(rows)).toEqual([{ items: 13, entries: 22 - 6, versions: 13 }]);
    expect(await store.purgeExpiredTrash(TRASH_DUE + 3, 5)).toBe(2);
    expect(await store.purgeExpiredTrash(TRASH_DUE + DAY, 5)).toBe(5);
    expect(await store.purgeExpiredTrash(TRASH_DUE + DAY, 5)).toBe(3);
    expect(await store.purgeExpiredTrash(TRASH_DUE + DAY, 5)).toBe(0);
    expect(await rows("SELECT path FROM trash_items ORDER BY path")).toEqual([
      { path: "late0.txt" },
      { path: "late1.txt" },
      { path: "late2.txt" },
    ]);
    // keep/a.txt and the shares' holds on sha(0), and each late file with its version.
    expect(await rows("SELECT sha256, ref_count FROM blobs ORDER BY sha256")).toEqual([
      { sha256: "0".padStart(64, "0"), ref_count: 1 + 6 + 2 },
      { sha256: "1".padStart(64, "0"), ref_count: 0 },
      { sha256: "2".padStart(64, "0"), ref_count: 2 },
      { sha256: "3".padStart(64, "0"), ref_count: 2 },
    ]);
    // Purged rows are gone for good; live ones were not touched.
    expect(
      await rows("SELECT path FROM entries WHERE trash_id IS NULL AND is_file = 1 ORDER BY path"),
    ).toEqual([{ path: "keep/a.txt" }]);
  });

  it("expires a share once, for the expiry it was scheduled for, and records share.expired", async () => {
    const { store, clock, rows } = open();
    clock.set(SHARE_EXPIRES - 1);
    expect(await store.expireShare("s2", SHARE_EXPIRES)).toBe(false);
    clock.set(SHARE_EXPIRES + 5);
    expect(await store.expireShare("s2", SHARE_EXPIRES - DAY)).toBe(false);
    expect(await store.expireShare("s0", SHARE_EXPIRES)).toBe(false);
    expect(await store.expireShare("s1", SHARE_EXPIRES)).toBe(false);
    expect(await store.expireShare("nowhere", SHARE_EXPIRES)).toBe(false);
    expect(await store.expireShare("s2", SHARE_EXPIRES)).toBe(true);
    expect(await store.expireShare("s2", SHARE_EXPIRES)).toBe(false);
    expect(await rows("SELECT id, expired_at FROM shares ORDER BY id")).toEqual([
      { id: "s0", expired_at: null },
      { id: "s1", expired_at: SHARE_EXPIRES },
      { id: "s2", expired_at: SHARE_EXPIRES + 5 },
      { id: "s3", expired_at: null },
      { id: "s4", expired_at: null },
      { id: "s5", expired_at: null },
    ]);
    expect(
      await rows("SELECT workspace_id, type, data, created_at FROM events WHERE seq > 20"),
    ).toEqual([
      {
        workspace_id: WS,
        type: "share.expired",
        data: JSON.stringify({ shareId: "s2", expiredAt: new Date(SHARE_EXPIRES).toISOString() }),
        created_at: SHARE_EXPIRES + 5,
      },
    ]);
  });

  it("prunes the events before the cutoff in batches, of every workspace", async () => {
    const { store, rows } = open();
    const cutoff = T0 + 9 * DAY + 1;
    expect(await store.pruneEvents(T0, 4)).toBe(0);
    // e00…e09 and the share.expired of the test before.
    expect(await store.pruneEvents(cutoff, 4)).toBe(4);
    expect(await store.pruneEvents(cutoff, 4)).toBe(4);
    expect(await store.pruneEvents(cutoff, 4)).toBe(3);
    expect(await store.pruneEvents(cutoff, 4)).toBe(0);
    const left = await rows("SELECT id FROM events ORDER BY id");
    expect(left.map((e) => e.id)).toEqual(Array.from({ length: 10 }, (_, i) => `e${10 + i}`));
  });

  it("fails the portal uploads whose transfer ended or went idle, once", async () => {
    const { store, rows } = open();
    expect(await store.failAbandonedUploads(T0)).toBe(2 + 20);
    expect(await store.failAbandonedUploads(ABANDONED_IDLE)).toBe(ABANDONED - 22);
    expect(await store.failAbandonedUploads(ABANDONED_IDLE)).toBe(0);
    const failed = await rows(
      "SELECT id FROM portal_uploads WHERE status = 'failed' AND length(id) = 2 ORDER BY id",
    );
    expect(failed.map((u) => u.id)).toEqual(["u1", "u2", "u3", "u5"]);
    expect(await rows("SELECT status FROM portal_uploads WHERE id = 'u6'")).toEqual([
      { status: "received" },
    ]);
  });
});
