import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "@/server/db/database";
import { loadConfig } from "@/server/env";
import { type Clock, ManualClock } from "@/server/lib/clock";
import { EventRecorder } from "@/server/modules/events/events.repository";
import * as entries from "./files.repository";
import { FilesService } from "./files.service";

/* The data files-store.test.ts runs its contract on, built the same way for each engine. */

export const WS = "ws";
export const T0 = Date.parse("2026-01-01T00:00:00Z");

/** Mixed names whose order differs between byte order and a language's collation. */
export const MIX_FOLDERS = ["Édition", "_tmp", "dir 10", "Dir 9", ".git"];
export const MIX_FILES = [
  "zebra.mov",
  "Été.txt",
  "été 2.txt",
  "eta.txt",
  "_x.txt",
  ".hidden",
  "10.txt",
  "9.txt",
  "Alpha.txt",
  "alpha_2.txt",
  "ALPHA_10.txt",
  "a%b.txt",
  "a_b.txt",
  "axb.txt",
  "naïve.doc",
  "Ñandú.png",
  "ümlaut.txt",
  "Ümlaut.TXT",
  "100% done.txt",
  "Plate.exr",
  "plate.exr",
];

/** Past the listing's direct-offset limit (2,048), so deep pages seek from remembered keys. */
export const BIG_COUNT = 2300;
const BIG_STEMS = ["Shot_", "shot-", "Élan ", "élan_", "_tmp", ".cfg", "Z", "a.b", "9lives "];

export const bigName = (i: number) =>
  `${BIG_STEMS[i % BIG_STEMS.length]}${i}${i % 23 ? ".exr" : ""}`;

/** A migrated SQLite database holding workspace WS and its tree, on a temporary data dir. */
export function seedSqlite(clock: Clock = new ManualClock(T0)) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-files-store-"));
  const db = openDatabase(path.join(dir, "consign.db"));
  db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES (?, 'W', 0)").run(WS);
  const events = new EventRecorder(db, clock);
  // Few versions kept, so restoring one drops the oldest (files-store.trash.test.ts).
  const config = loadConfig({ DATA_DIR: dir, VERSIONS_KEEP: "3" });
  const files = new FilesService(db, clock, config, events);
  const file = (i: number) => ({
    size: (i * 7919) % 97,
    mime: "application/octet-stream",
    sha256: `${i}`.padStart(64, "0"),
  });
  db.transaction(() => {
    const root = entries.root(db, WS, T0);
    const folder = (parent: entries.EntryRow, name: string) =>
      entries.insert(db, parent, name, null, T0);
    const mix = folder(root, "mix");
    for (const name of MIX_FOLDERS) folder(mix, name);
    MIX_FILES.forEach((name, i) => {
      entries.insert(db, mix, name, file(i), T0, { modifiedAt: T0 + (i % 4) * 1000 });
    });
    const big = folder(root, "big");
    for (let i = 0; i < BIG_COUNT; i++) {
      if (i % 23 === 0) folder(big, bigName(i));
      else
        entries.insert(db, big, bigName(i), file(i), T0, {
          modifiedAt: T0 + ((i * 31) % 50) * 1000,
        });
    }
    const r = folder(root, "r");
    for (const name of ["a.txt", "b.txt", "c.txt"]) entries.insert(db, r, name, file(1), T0);
    const dir1 = folder(r, "dir");
    entries.insert(db, dir1, "x.txt", file(2), T0);
    entries.insert(db, folder(dir1, "sub"), "deep.txt", file(3), T0);
  })();
  return {
    db,
    files,
    events,
    config,
    close() {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type Seeded = ReturnType<typeof seedSqlite>;

/** Protection of the seed's one encrypted content (content protection, JSON). */
export const SEALED = '{"scheme":"test"}';

/**
 * Files with kept versions, shared blobs and trash items under `h`, written at T0 through the
 * service as a user's uploads and deletes would be (files-store.trash.test.ts).
 */
export async function seedHistory({ db, files, events, config }: Seeded) {
  const write = (p: string, content: string, at = T0, protection?: string) =>
    files.writeFile(WS, p, content, { modifiedAt: at, ...(protection ? { protection } : {}) });
  for (let i = 0; i < 5; i++) await write("h/doc.txt", `doc v${i}`, T0 + i * 1000);
  // More kept versions than VERSIONS_KEEP allows, as after the setting was lowered.
  const lowered = new FilesService(
    db,
    new ManualClock(T0),
    { ...config, versionsKeep: 10 },
    events,
  );
  for (let i = 0; i < 6; i++)
    await lowered.writeFile(WS, "h/old.txt", `old v${i}`, { modifiedAt: T0 + i * 1000 });
  await write("h/secret.bin", "sealed", T0, SEALED);
  await write("h/secret.bin", "plain", T0 + 1000);
  await write("h/tree/a/b.txt", "shared");
  await write("h/tree/c.txt", "shared");
  await write("h/tree/a/b.txt", "b2", T0 + 1000);
  await write("h/keep.txt", "shared");
  // Trashed, then its name taken twice over.
  await write("h/taken.txt", "first");
  files.remove(WS, ["h/taken.txt"], false);
  await write("h/taken.txt", "second");
  await write("h/taken (restored).txt", "third");
  // Trashed, then its parents deleted for good.
  await write("h/lost/deep/kid.txt", "kid");
  files.remove(WS, ["h/lost/deep/kid.txt"], false);
  files.remove(WS, ["h/lost"], true);
  // Trashed, then a file written where its folder was.
  await write("h/way/x.txt", "x");
  files.remove(WS, ["h/way/x.txt"], false);
  files.remove(WS, ["h/way"], true);
  await write("h/way", "a file now");
}
