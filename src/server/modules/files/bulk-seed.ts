import { setTimeout as sleep } from "node:timers/promises";
import { addBlobRef, childrenChanged, insertRow, joinPath } from "./files.repository";
import type { FilesService } from "./files.service";

const SEED_CONTENT = "Consign seed file: every seeded file shares these bytes.\n";
const pad = (n: number) => String(n).padStart(7, "0");
const seedName = (i: number, folderEvery: number) =>
  folderEvery && i % folderEvery === folderEvery - 1
    ? `dir_${pad(i)}`
    : `plate_${pad(i)}_v00${(i % 3) + 1}.exr`;

export interface SeedOptions {
  /** Number of the first entry (names are numbered); by default the folder's entry count, so repeated seeding adds rather than collides. */
  start?: number;
  /** One entry in this many is an (empty) folder; 0 for files only. */
  folderEvery?: number;
  /**
   * Pause between batches, so that the running service and other CLIs, whose busy handler
   * polls for the write lock, get it between two batches; 0 where nobody else writes.
   */
  pauseMs?: number;
}

/** Rows per transaction: short enough (well under 100 ms here) that no writer waits long. */
const BATCH = 2000;

/**
 * Adds `count` entries to a folder in batches of one transaction each: names that sort and
 * search like a real image sequence, by default one folder in fifty, every file sharing one
 * small blob. Each batch updates the folder's counts and the blob's references with its rows,
 * so a seed cut short leaves a consistent, smaller folder. 100,000 entries take a few seconds.
 */
export async function seedEntries(
  files: FilesService,
  workspaceId: string,
  folderPath: string,
  count: number,
  { start, folderEvery = 50, pauseMs = 20 }: SeedOptions = {},
) {
  const { db } = files;
  const now = Date.now();
  let first = start;
  for (let done = 0; done < count; done += BATCH) {
    if (done > 0 && pauseMs > 0) await sleep(pauseMs);
    const blob = await files.blobs.stage(SEED_CONTENT);
    db.transaction(() => {
      const folder = files.ensureFolder(workspaceId, folderPath, now);
      first ??= folder.folder_count + folder.file_count;
      const batch = Math.min(BATCH, count - done);
      let folders = 0;
      for (let i = first + done; i < first + done + batch; i++) {
        const name = seedName(i, folderEvery);
        const isFile = !name.startsWith("dir_");
        if (!isFile) folders++;
        // Dates vary so the date order differs from the name order.
        insertRow(
          db,
          folder,
          name,
          isFile ? { size: blob.size, mime: "image/x-exr", sha256: blob.sha256 } : null,
          now - ((i * 104_729) % 31_536_000_000),
          now - ((i * 15_485_863) % 31_536_000_000),
        );
      }
      childrenChanged(db, folder.id, folders, batch - folders, now);
      addBlobRef(db, blob.sha256, blob.size, now, batch - folders);
      files.blobs.commit(blob);
    }).immediate();
  }
}

/** A large tree: `count` entries spread over sibling folders of `perFolder` entries each. */
export async function seedTree(
  files: FilesService,
  workspaceId: string,
  root: string,
  count: number,
  perFolder = 1000,
  pauseMs = 20,
) {
  for (let done = 0, n = 0; done < count; done += perFolder, n++) {
    const folder = joinPath(root, `batch_${String(n).padStart(4, "0")}`);
    await seedEntries(files, workspaceId, folder, Math.min(perFolder, count - done), {
      start: done,
      pauseMs,
    });
    if (pauseMs > 0) await sleep(pauseMs);
  }
}
