/**
 * Per-call latency of the files area's metadata port on each engine (docs/scale-out.md, Files
 * metadata): one folder of 100,000 entries in SQLite, moved to a PostgreSQL on loopback with
 * `moveRows`, then the same calls one at a time through SqliteFilesStore and PgFilesStore.
 * Run: `tsx bench/files-store.ts`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../src/server/db/database";
import { migratePg } from "../src/server/db/pg/migrate";
import { moveRows } from "../src/server/db/pg/move-rows";
import { createPgPool } from "../src/server/db/pg/pool";
import { loadConfig } from "../src/server/env";
import { systemClock } from "../src/server/lib/clock";
import { PgEventRecorder } from "../src/server/modules/events/events.pg";
import { EventRecorder } from "../src/server/modules/events/events.repository";
import { seedEntries } from "../src/server/modules/files/bulk-seed";
import { FilesService } from "../src/server/modules/files/files.service";
import { type FilesStore, SqliteFilesStore } from "../src/server/modules/files/files-store";
import { PgFilesStore } from "../src/server/modules/files/files-store.pg";
import { createDatabase, startPostgres } from "../src/server/testing/postgres-server";
import { figureLine, formatMs, percentile } from "./stats";

const ENTRIES = 100_000;
const CALLS = 300;
const WS = "ws";
const FOLDER = "flat";
const line = figureLine(44);

async function timed(calls: number, call: (i: number) => Promise<unknown>) {
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await call(i);
    samples.push(performance.now() - started);
  }
  return samples;
}

const page = (skip: number) => ({
  path: FOLDER,
  skip,
  count: 200,
  sort: "name" as const,
  order: "asc" as const,
});

async function measure(engine: string, store: FilesStore) {
  console.log(`\n${engine}: ${CALLS} calls each, one at a time (p50 / p95)`);
  const show = (label: string, samples: number[]) =>
    line(
      label,
      `${formatMs(percentile(samples, 50), 2)} / ${formatMs(percentile(samples, 95), 2)}`,
      "",
      null,
    );
  // A new skip each call: none is served from the page cache.
  show(
    "list, first page (cached after the first)",
    await timed(CALLS, () => store.listPage(WS, page(0))),
  );
  show(
    "list, a page anywhere (not cached)",
    await timed(CALLS, (i) => store.listPage(WS, page((i * 7919) % (ENTRIES - 200)))),
  );
  show(
    "list, by size, desc, anywhere",
    await timed(CALLS, (i) =>
      store.listPage(WS, { ...page((i * 7919) % (ENTRIES - 200)), sort: "size", order: "desc" }),
    ),
  );
  const search = (q: string) => timed(CALLS, () => store.search(WS, { q, path: "", limit: 100 }));
  show("search, name start (plate_0004)", await search("plate_0004"));
  show("search, substring (0042_v0)", await search("0042_v0"));
  show("search, 2 characters (_9)", await search("_9"));
  show("search, 1 character, no match (q)", await search("q"));
  const name = (i: number) => `plate_${String(i).padStart(7, "0")}_v00${(i % 3) + 1}.exr`;
  show(
    "rename a file (and back)",
    await timed(CALLS, (i) => {
      const n = 1 + 50 * (i >> 1);
      return i % 2 === 0
        ? store.rename(WS, `${FOLDER}/${name(n)}`, `renamed ${n}.exr`)
        : store.rename(WS, `${FOLDER}/renamed ${n}.exr`, name(n));
    }),
  );
}

/**
 * What the port itself adds on SQLite: a cached first page and a search, called directly on
 * FilesService as the routes did and through SqliteFilesStore, alternately, so load from other
 * work on the machine falls on both alike.
 */
async function portCost(files: FilesService, store: FilesStore) {
  const calls = 20_000;
  const direct = { list: 0, search: 0 };
  const ported = { list: 0, search: 0 };
  const run = async (into: typeof direct, list: () => unknown, search: () => unknown) => {
    let started = performance.now();
    for (let i = 0; i < calls; i++) await list();
    into.list += performance.now() - started;
    started = performance.now();
    for (let i = 0; i < calls / 20; i++) await search();
    into.search += performance.now() - started;
  };
  for (let round = 0; round < 4; round++) {
    await run(
      direct,
      () => files.list(files.folder(WS, FOLDER, "query.path"), page(0)),
      () => files.search(files.folder(WS, "", "query.path"), "0042_v0", 100),
    );
    await run(
      ported,
      () => store.listPage(WS, page(0)),
      () => store.search(WS, { q: "0042_v0", path: "", limit: 100 }),
    );
  }
  const us = (ms: number, n: number) => `${((ms * 1000) / n).toFixed(1)} µs`;
  console.log("\nSQLite, the port's own cost (mean per call, direct / through the store)");
  line(
    "list, cached first page",
    `${us(direct.list, calls * 4)} / ${us(ported.list, calls * 4)}`,
    "",
    null,
  );
  line(
    "search 0042_v0",
    `${us(direct.search, calls / 5)} / ${us(ported.search, calls / 5)}`,
    "",
    null,
  );
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-bench-store-"));
const server = await startPostgres("consign-bench-store-pg-");
try {
  const db = openDatabase(path.join(dataDir, "consign.db"));
  db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES (?, 'W', 0)").run(WS);
  const events = new EventRecorder(db, systemClock);
  const config = loadConfig({ DATA_DIR: dataDir });
  const files = new FilesService(db, systemClock, config, events);
  await seedEntries(files, WS, FOLDER, ENTRIES, { folderEvery: 50, pauseMs: 0 });
  db.exec("ANALYZE");
  const pool = createPgPool(await createDatabase(server.url, "bench_store"));
  await migratePg(pool);
  const started = performance.now();
  await moveRows(db, pool);
  await pool.query("ANALYZE");
  console.log(
    `${ENTRIES.toLocaleString("en")} entries in one folder; moved to PostgreSQL in ${formatMs(performance.now() - started)}`,
  );
  await portCost(files, new SqliteFilesStore(files));
  await measure("SQLite (SqliteFilesStore, in process)", new SqliteFilesStore(files));
  await measure(
    "PostgreSQL (PgFilesStore, loopback)",
    new PgFilesStore(pool, systemClock, new PgEventRecorder(systemClock), config),
  );
  await pool.end();
  db.close();
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
