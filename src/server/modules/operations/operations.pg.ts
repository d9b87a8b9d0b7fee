import type { ConflictChoice, OperationConflict } from "@/contract/operations";
import type { PgClient } from "@/server/db/pg/pool";
import { notFound, validationFailed } from "@/server/lib/api-error";
import { newId } from "@/server/lib/ids";
import {
  type EntryRow,
  joinPath,
  parentOf,
  subtreeRange,
} from "@/server/modules/files/files.repository";
import { byPath } from "@/server/modules/files/tree.pg";
import type { JobRunner } from "@/server/workers/job-runner";
import { insertJob } from "@/server/workers/jobs.pg";
import {
  checkedPaths,
  checkPlanLimit,
  intoItself,
  OPERATION_JOB,
  sameFolder,
  unresolvedConflicts,
} from "./operations.service";

/**
 * startOperation's move of one entry on PostgreSQL, in the caller's transaction (which holds the
 * workspace's lock): the same checks and refusals, the job and its item stored and queued
 * (jobs.pg.ts) so they commit with the caller's writes. What a portal's approval needs and no
 * more: a file moves alone (its sequence is not expanded, as the move route would).
 */
export async function startMovePg(
  c: PgClient,
  jobs: Pick<JobRunner, "newJob">,
  workspaceId: string,
  input: { path: string; destination: string; onConflict?: ConflictChoice },
  now: number,
): Promise<string> {
  const { paths, destination } = checkedPaths({
    paths: [input.path],
    destination: input.destination,
  });
  const path = paths[0]!;
  const dest = await byPath(c, workspaceId, destination);
  if (!dest) throw notFound(`"${destination}"`, { path: destination });
  if (dest.is_file)
    throw validationFailed(
      "destination",
      `"${destination}" is a file, not a folder`,
      "not_a_folder",
    );
  const row = await byPath(c, workspaceId, path);
  if (!row) throw notFound(`"${path}"`, { path });
  if (!row.is_file && (dest.path === row.path || dest.path.startsWith(`${row.path}/`)))
    throw intoItself(row.path);
  if (parentOf(row.path) === dest.path) throw sameFolder(row.path, dest.path);
  const choice = input.onConflict ?? null;
  const destinationPath = joinPath(dest.path, row.name);
  const existing = await byPath(c, workspaceId, destinationPath);
  const size = row.is_file ? { files: 1, bytes: row.size } : await subtreeTotalsPg(c, row);
  checkPlanLimit(size.bytes);
  if (existing && choice === null) {
    const conflict: OperationConflict = {
      path: row.path,
      destinationPath,
      type: row.is_file ? "file" : "folder",
      existingType: existing.is_file ? "file" : "folder",
    };
    throw unresolvedConflicts([conflict]);
  }
  const id = newId();
  await c.query(
    `INSERT INTO file_operations (id, workspace_id, kind, status, destination, overwrite, files_total, bytes_total, created_at)
     VALUES ($1, $2, 'move', 'queued', $3, 0, $4, $5, $6)`,
    [id, workspaceId, dest.path, size.files, size.bytes, now],
  );
  await c.query(
    `INSERT INTO file_operation_items (operation_id, idx, path, is_file, files, bytes, choice)
     VALUES ($1, 0, $2, $3, $4, $5, $6)`,
    [id, row.path, row.is_file, size.files, size.bytes, choice],
  );
  await insertJob(c, jobs.newJob(OPERATION_JOB, { operationId: id }));
  return id;
}

/** tree.repository's subtreeTotals: the files below a folder and their bytes. */
export async function subtreeTotalsPg(c: PgClient, folder: EntryRow) {
  const [lo, hi] = subtreeRange(folder.path);
  const { rows } = await c.query<{ files: number; bytes: number }>(
    `SELECT count(*) AS files, coalesce(sum(size), 0)::bigint AS bytes FROM entries
     WHERE workspace_id = $1 AND trash_id IS NULL AND path >= $2 AND path < $3 AND is_file = 1`,
    [folder.workspace_id, lo, hi],
  );
  return rows[0]!;
}

/**
 * cancelOperation's write, for a job the caller found queued or running under the workspace's
 * lock: the worker checks the status before each item, so nothing after this commit starts.
 */
export const cancelOperationPg = (c: PgClient, id: string, now: number) =>
  c.query(
    `UPDATE file_operations SET status = 'cancelled', error = NULL, finished_at = $1
     WHERE id = $2 AND status IN ('queued', 'running')`,
    [now, id],
  );
