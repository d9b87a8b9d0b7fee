import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDeps } from "@/server/deps";
import { loadConfig } from "@/server/env";
import { ManualClock } from "@/server/lib/clock";
import { createLogger } from "@/server/lib/logger";

/* The data bulk-store.test.ts runs its contract on, built the same way for each engine. */

export const WS = "ws";
export const T0 = Date.parse("2026-04-01T09:00:00Z");
/** The units run from this time on; the seed's rows were written before it. */
export const NOW = T0 + 60_000;

/** Children of `big`, whose order differs between byte order and a language's collation. */
export const BIG = [
  "Édition/",
  "_tmp/",
  "dir 10/",
  "Dir 9/",
  "zebra.mov",
  "Été.txt",
  "eta.txt",
  "_x.txt",
  "Alpha.txt",
  "alpha_2.txt",
  "ümlaut.txt",
  "10.txt",
  "9.txt",
];

/** Trashed under `f`, one at a time, a second apart: the trash filter's material. */
export const FILTERED = ["f/ébene.txt", "f/Ebene.txt", "f/sub/EBENE.md", "f/autre.txt"];

/**
 * A service's deps on a temporary data dir, holding workspace WS (and an empty `other`) with a
 * tree, blobs and trash items written through the files service as users would. Trash items
 * made here have the same ids on both engines (moved rows).
 */
export async function seedSqlite() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-bulk-store-"));
  const clock = new ManualClock(T0);
  const deps = createDeps(loadConfig({ DATA_DIR: dir }), { clock, log: createLogger("silent") });
  const workspace = deps.db.prepare(
    "INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, 0)",
  );
  workspace.run(WS, "W");
  workspace.run("other", "O");
  const { files } = deps;
  const write = (p: string, text = p) => files.writeFile(WS, p, text, { modifiedAt: T0 });
  for (const p of ["p/a.txt", "p/shots/one.exr", "p/keep.txt", "d/x.txt", "d/y/z.txt"])
    await write(p, "shared");
  for (const name of BIG) {
    if (name.endsWith("/")) await write(`big/${name}inner.txt`);
    else await write(`big/${name}`);
  }
  // Trashed, then its name taken.
  await write("h/taken.txt", "first");
  files.remove(WS, ["h/taken.txt"], false);
  await write("h/taken.txt", "second");
  // Trashed, then a file written where its folder was: it cannot come back.
  await write("h/way/x.txt");
  files.remove(WS, ["h/way/x.txt"], false);
  files.remove(WS, ["h/way"], true);
  await write("h/way", "a file now");
  // Trashed, then its parents deleted for good: they are made again.
  await write("h/lost/deep/kid.txt");
  files.remove(WS, ["h/lost/deep/kid.txt"], false);
  files.remove(WS, ["h/lost"], true);
  for (const [i, p] of FILTERED.entries()) {
    await write(p);
    clock.set(T0 + (i + 1) * 1000);
    files.remove(WS, [p], false);
  }
  clock.set(NOW);
  return {
    deps,
    clock,
    close() {
      deps.db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type Seeded = Awaited<ReturnType<typeof seedSqlite>>;

/** A trash item's id by its path, as both engines hold it. */
export const trashId = (seeded: Seeded, p: string) =>
  seeded.deps.db.prepare("SELECT id FROM trash_items WHERE path = ?").pluck().get(p) as string;
