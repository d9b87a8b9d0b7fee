import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { type Db, openDatabase } from "./db/database";
import { loadConfig } from "./env";
import { ManualClock } from "./lib/clock";
import { type RunningService, startService } from "./server";

const dirs: string[] = [];
const running: RunningService[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/**
 * Every write on this connection fails as on a full disk, while reads and transactions that
 * write nothing go on. (SQLite has no per-connection switch for that: temporary triggers raise
 * SQLite's own message on every table.)
 */
function refuseWrites(db: Db) {
  const tables = db
    .prepare(
      "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .pluck()
    .all() as string[];
  for (const table of tables)
    for (const op of ["INSERT", "UPDATE", "DELETE"])
      db.exec(
        `CREATE TEMP TRIGGER "full_${op}_${table}" BEFORE ${op} ON main."${table}"
         BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`,
      );
}

it("a start on a database that takes no writes (a full disk) serves reads and runs the upload cleanup", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-full-start-"));
  dirs.push(dir);
  const config = loadConfig({
    DATA_DIR: dir,
    PORT: "0",
    LOG_LEVEL: "silent",
    DEMO_CONTENT: "0",
    STATIC_DIR: path.join(dir, "none"),
  });
  const first = await startService(config);
  if (!first.boot.created) throw new Error("expected a fresh data dir");
  const { adminKey } = first.boot;
  const auth = { Authorization: `Bearer ${adminKey}`, "Content-Type": "application/json" };
  const ws = first.boot.workspace.id;
  const created = await fetch(`${first.url}/v1/workspaces/${ws}/transfers`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({
      direction: "send",
      paths: [{ source: "/a.bin", destination: "Inbox/a.bin" }],
    }),
  });
  const { token } = ((await created.json()) as { transferSpec: { token: string } }).transferSpec;
  const upload = await fetch(`${first.url}/node/v1/uploads`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Tus-Resumable": "1.0.0",
      "Upload-Length": "8192",
      "Upload-Metadata": `path ${Buffer.from("Inbox/a.bin").toString("base64")}`,
      "Content-Type": "application/offset+octet-stream",
    },
    body: new Uint8Array(4096),
  });
  expect(upload.status).toBe(201);
  const idle = path.join(
    dir,
    "blobs",
    "staging",
    upload.headers.get("location")!.split("/").pop()!,
  );
  expect(fs.statSync(idle).size).toBe(4096);
  await first.stop();
  // An upload's staged bytes whose upload is gone: what the cleanup frees.
  const abandoned = path.join(dir, "blobs", "staging", "01abandoned");
  fs.writeFileSync(abandoned, Buffer.alloc(64 * 1024));

  const db = openDatabase(path.join(dir, "consign.db"));
  refuseWrites(db);
  // Two days on: the upload is idle past its expiry, but its row cannot be marked failed.
  const clock = new ManualClock(Date.now() + 2 * 86_400_000);
  const service = await startService(config, { db, clock });
  running.push(service);
  const res = await fetch(`${service.url}/v1/auth/key`, {
    headers: { Authorization: `Bearer ${adminKey}` },
  });
  expect(res.status).toBe(200);
  expect(fs.existsSync(abandoned)).toBe(false);
  expect(fs.existsSync(idle)).toBe(false);
});
