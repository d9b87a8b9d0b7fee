import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, openDatabase } from "./database";
import type { Migration } from "./migrations";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** Another process applying version 1000 and holding the write lock `holdMs` before it commits. */
const applyElsewhere = `
  const { parentPort, workerData } = require("node:worker_threads");
  const Database = require("better-sqlite3");
  const db = new Database(workerData.file);
  db.exec("BEGIN IMMEDIATE");
  db.exec("CREATE TABLE later (x)");
  db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (1000, 'later', 0)").run();
  parentPort.postMessage("locked");
  setTimeout(() => { db.exec("COMMIT"); db.close(); }, workerData.holdMs);
`;

describe("migrate", () => {
  it("skips a migration another process applied while this one waited for the write lock", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-db-"));
    dirs.push(dir);
    const file = path.join(dir, "consign.db");
    const db = openDatabase(file);
    const later: Migration = {
      version: 1000,
      name: "later",
      up: (d) => d.exec("CREATE TABLE later (x)"),
    };

    const other = new Worker(applyElsewhere, { eval: true, workerData: { file, holdMs: 300 } });
    const exited = new Promise((resolve) => other.once("exit", resolve));
    await new Promise((resolve, reject) => {
      other.once("message", resolve);
      other.once("error", reject);
    });
    // Sees version 1000 missing (the other write is not committed yet), then waits for the lock.
    migrate(db, [later]);
    await exited;

    expect(
      db.prepare("SELECT version FROM schema_migrations WHERE version = 1000").pluck().all(),
    ).toEqual([1000]);
    db.close();
  });
});
