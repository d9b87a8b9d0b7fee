import { baseName, joinPath, parentOf } from "@/contract/rules";
import type { AppDeps } from "@/server/deps";
import { ApiError } from "@/server/lib/api-error";
import { byPath } from "@/server/modules/files/files.repository";
import { ItemError, transferItem } from "@/server/modules/operations/tree-copy";
import type { JobKind } from "@/server/workers/job-runner";
import { workspacePaths } from "./transfer-access";
import { committedPaths, pathsOf, type TransferRow, transferRow } from "./transfers.repository";
import { DELIVER_JOB } from "./transfers.service";

const BATCH_FILES = 500;

/**
 * Where a committed file lands in a deliverTo folder: as a copy job would put its path item
 * there (the item under its own name, the file at its place inside it). The workspace root as
 * an item keeps the file's whole path.
 */
function deliveredPath(items: string[], file: string, folder: string): string {
  const item = items
    .filter((p) => p === "" || file === p || file.startsWith(`${p}/`))
    .reduce((a, b) => (b.length > a.length ? b : a), "");
  return joinPath(folder, item === "" ? file : baseName(item) + file.slice(item.length));
}

/**
 * One batch in one transaction: each committed file copied into each deliverTo folder through
 * the copy job's own `transferItem` (the same stored content, no bytes copied; a file already
 * there is replaced, its old content kept as a version; identical content changes nothing, so a
 * batch run again after a crash is harmless). A file since deleted is skipped, and so is one
 * whose place holds a folder (logged): the rest still arrive.
 */
function deliverBatch(deps: AppDeps, row: TransferRow, items: string[], after: number) {
  const { db, files, clock, config } = deps;
  return db
    .transaction(() => {
      const now = clock.now();
      const batch = committedPaths(db, row.id, after, BATCH_FILES);
      const created: string[] = [];
      const updated: string[] = [];
      const ctx = { db, move: false, versionsKeep: config.versionsKeep, now };
      for (const folder of JSON.parse(row.deliver_to) as string[]) {
        for (const { path } of batch) {
          const src = byPath(db, row.workspace_id, path);
          if (!src?.is_file) continue;
          const target = deliveredPath(items, path, folder);
          try {
            // The files module makes missing folders: the tree's counts and file.created events.
            const dest = files.ensureFolder(row.workspace_id, parentOf(target), now, created);
            const existed = byPath(db, row.workspace_id, joinPath(dest.path, src.name));
            if (existed?.sha256 === src.sha256) continue;
            transferItem(ctx, src, dest, "overwrite");
            (existed ? updated : created).push(joinPath(dest.path, src.name));
          } catch (err) {
            if (!(err instanceof ItemError || err instanceof ApiError)) throw err;
            deps.log.warn("deliverTo: a file was not delivered", {
              transferId: row.id,
              path,
              target,
              reason: err.message,
            });
          }
        }
      }
      if (created.length > 0)
        deps.events.record(row.workspace_id, "file.created", { paths: created });
      if (updated.length > 0)
        deps.events.record(row.workspace_id, "file.updated", { paths: updated });
      return batch.at(-1)?.rowid ?? null;
    })
    .immediate();
}

export function deliverJob(deps: AppDeps): JobKind {
  return {
    maxAttempts: 5,
    backoffMs: () => 5_000,
    run: (payload) => {
      const { transferId } = payload as { transferId: string };
      const row = transferRow(deps.db, transferId);
      if (!row) return;
      const items = workspacePaths(row, pathsOf(deps.db, row.id));
      let after: number | null = 0;
      while (after !== null) after = deliverBatch(deps, row, items, after);
    },
  };
}

export function registerTransfersWorkers(deps: AppDeps) {
  deps.jobs.register(DELIVER_JOB, deliverJob(deps));
}
