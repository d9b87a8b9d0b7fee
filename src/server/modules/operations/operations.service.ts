import type {
  ConflictChoice,
  CreateOperationBody,
  Operation,
  OperationConflict,
} from "@/contract/operations";
import { normalizeName, OPERATION_BYTES_MAX, OPERATION_ITEMS_MAX } from "@/contract/rules";
import type { AppDeps } from "@/server/deps";
import {
  ApiError,
  checkCount,
  checkPath,
  notFound,
  validationFailed,
} from "@/server/lib/api-error";
import { toIso, toIsoOrNull } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { byPath, type EntryRow, joinPath, parentOf } from "@/server/modules/files/files.repository";
import { sequenceOf } from "@/server/modules/files/sequences.service";
import { subtreeTotals } from "@/server/modules/files/tree.repository";
import {
  insertOperation,
  listOperationRows,
  markEnded,
  type OperationItemRow,
  type OperationRow,
  operationById,
  operationItems,
} from "./operations.repository";

export const OPERATION_JOB = "files.operation";

/** A create body as its schema leaves it; the members it defaults may still be left out. */
type CreateInput = Required<Pick<CreateOperationBody, "kind" | "paths" | "destination">> &
  Omit<CreateOperationBody, "kind" | "paths" | "destination">;

/** The job as the API shows it; each item also says what became of it (extension members). */
export function toOperation(row: OperationRow, items: OperationItemRow[]): Operation {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    destination: row.destination,
    overwrite: row.overwrite === 1,
    items: items.map((i) => ({
      path: i.path,
      type: i.is_file ? "file" : "folder",
      bytes: i.bytes,
      files: i.files,
      status: i.status,
      destinationPath: i.destination_path,
    })),
    filesTotal: row.files_total,
    filesDone: row.files_done,
    bytesTotal: row.bytes_total,
    bytesDone: row.bytes_done,
    error: row.error,
    createdAt: toIso(row.created_at),
    startedAt: toIsoOrNull(row.started_at),
    finishedAt: toIsoOrNull(row.finished_at),
  };
}

const ioError = (message: string, code: string, details: Record<string, unknown> = {}) =>
  validationFailed(code === "conflict" ? "paths" : "destination", message, code, { details });

/*
 * A plan's refusals, shared with operations.pg.ts (a portal approval's move on PostgreSQL), so
 * both engines refuse alike.
 */
export const intoItself = (path: string) =>
  ioError(`"${path}" cannot be moved or copied into itself`, "into_itself");
export const sameFolder = (path: string, dest: string) =>
  ioError(`"${path}" is already in "${dest}"`, "same_folder");
export const unresolvedConflicts = (unresolved: OperationConflict[]) =>
  ioError(
    `${unresolved.length} item(s) would replace what is already there (first: "${unresolved[0]!.destinationPath}"); choose overwrite, skip or keepBoth`,
    "conflict",
    { conflicts: unresolved },
  );
export function checkPlanLimit(bytesTotal: number) {
  if (bytesTotal > OPERATION_BYTES_MAX)
    throw new ApiError(
      403,
      "plan_limit",
      `A job may move or copy at most ${OPERATION_BYTES_MAX} bytes; this one is ${bytesTotal}`,
      { bytesTotal, limit: OPERATION_BYTES_MAX },
    );
}

/** The paths and destination as the create body's schema leaves them (NFC, path rules). */
export function checkedPaths(input: Pick<CreateOperationBody, "paths" | "destination">) {
  checkCount("paths", input.paths.length, OPERATION_ITEMS_MAX);
  const paths = input.paths.map((p, i) => {
    const path = normalizeName(p);
    if (path === "")
      throw validationFailed(`paths.${i}`, "A path must name something", "too_small");
    checkPath(`paths.${i}`, path);
    return path;
  });
  const destination = normalizeName(input.destination ?? "");
  checkPath("destination", destination);
  return { paths, destination };
}

/**
 * A move or copy another module asks for (a portal's approved upload), with what the create
 * body's schema would have done to a request: the item count bounded, and every path in NFC
 * and held to the path rules (`path_rejected`).
 */
export function startOperation(deps: AppDeps, workspaceId: string, input: CreateOperationBody) {
  return createOperation(deps, workspaceId, { ...input, ...checkedPaths(input) });
}

/** The selected entries, each once: a folder's contents go with it, a file brings its sequence. */
function selectedRows(deps: AppDeps, workspaceId: string, body: CreateInput): EntryRow[] {
  const unique = [...new Set(body.paths)];
  const tops = unique.filter((p) => !unique.some((q) => p.startsWith(`${q}/`)));
  const selected = tops.map((p) => {
    const row = byPath(deps.db, workspaceId, p);
    if (!row) throw notFound(`"${p}"`, { path: p });
    return row;
  });
  const seen = new Set<number>();
  const rows: EntryRow[] = [];
  for (const row of selected) {
    const members =
      row.is_file && body.expandSequences !== false ? sequenceOf(deps.db, row) : [row];
    for (const r of members) {
      if (seen.has(r.id)) continue;
      seen.add(r.id);
      rows.push(r);
    }
  }
  return rows;
}

/**
 * Each row's item with its conflict choice and size; refuses a folder into itself, a move into
 * the folder it is in, a job over the size limit, and any conflict left without a choice.
 */
function planItems(
  deps: AppDeps,
  workspaceId: string,
  body: CreateInput,
  dest: EntryRow,
  rows: EntryRow[],
) {
  const move = body.kind === "move";
  const resolutions = new Map(
    Object.entries(body.resolutions ?? {}).map(([p, c]) => [normalizeName(p), c]),
  );
  const fallback: ConflictChoice | null = body.onConflict ?? (body.overwrite ? "overwrite" : null);
  const targets = new Map<string, EntryRow>();
  const unresolved: OperationConflict[] = [];
  let filesTotal = 0;
  let bytesTotal = 0;
  const items = rows.map((row, idx) => {
    if (!row.is_file && (dest.path === row.path || dest.path.startsWith(`${row.path}/`))) {
      throw intoItself(row.path);
    }
    const choice = resolutions.get(row.path) ?? fallback;
    const destinationPath = joinPath(dest.path, row.name);
    if (parentOf(row.path) === dest.path && (move || choice === "overwrite")) {
      throw sameFolder(row.path, dest.path);
    }
    const existing = targets.get(destinationPath) ?? byPath(deps.db, workspaceId, destinationPath);
    targets.set(destinationPath, row);
    if (
      existing &&
      (choice === null || (choice === "overwrite" && existing.is_file !== row.is_file))
    ) {
      unresolved.push({
        path: row.path,
        destinationPath,
        type: row.is_file ? "file" : "folder",
        existingType: existing.is_file ? "file" : "folder",
      });
    }
    const size = row.is_file
      ? { files: 1, bytes: row.size }
      : subtreeTotals(deps.db, workspaceId, row.path);
    filesTotal += size.files;
    bytesTotal += size.bytes;
    return { idx, path: row.path, is_file: row.is_file, ...size, choice };
  });

  checkPlanLimit(bytesTotal);
  if (unresolved.length > 0) throw unresolvedConflicts(unresolved);
  return { items, filesTotal, bytesTotal };
}

/**
 * Plans a move or copy in one transaction: every path resolved (404 names the first unknown one),
 * sequences expanded, the size limit and every conflict checked; then the job and its items are
 * stored and queued. Nothing changes in the tree until the worker runs.
 */
export function createOperation(deps: AppDeps, workspaceId: string, body: CreateInput) {
  const { db, files, jobs } = deps;
  return db
    .transaction(() => {
      const now = deps.clock.now();
      // The files module resolves the destination: 404, or a file, answered as its routes do.
      const dest = files.folder(workspaceId, body.destination, "destination");
      const rows = selectedRows(deps, workspaceId, body);
      const { items, filesTotal, bytesTotal } = planItems(deps, workspaceId, body, dest, rows);
      const id = newId();
      insertOperation(
        db,
        {
          id,
          workspace_id: workspaceId,
          kind: body.kind,
          destination: dest.path,
          overwrite: body.overwrite ? 1 : 0,
          files_total: filesTotal,
          bytes_total: bytesTotal,
          created_at: now,
        },
        items,
      );
      jobs.enqueue(OPERATION_JOB, { operationId: id });
      return getOperation(deps, workspaceId, id);
    })
    .immediate();
}
export const noOperation = (id: string) => notFound(`Job ${id}`, { jobId: id });

/** Refuses a cancel of an unknown job, or of one that has completed or failed. */
export function checkCancellable(id: string, row: OperationRow | undefined): OperationRow {
  if (!row) throw noOperation(id);
  if (row.status === "completed" || row.status === "failed") {
    throw validationFailed("jobId", `Job ${id} has already ${row.status}`, "not_cancellable", {
      issue: `the job is ${row.status}`,
    });
  }
  return row;
}

export function getOperation(deps: AppDeps, workspaceId: string, id: string): Operation {
  const row = operationById(deps.db, workspaceId, id);
  if (!row) throw noOperation(id);
  return toOperation(row, operationItems(deps.db, id));
}

export const listOperations = (
  deps: AppDeps,
  workspaceId: string,
  q: { active?: boolean; limit: number },
): Operation[] =>
  listOperationRows(deps.db, workspaceId, q.active === true, q.limit).map((row) =>
    toOperation(row, operationItems(deps.db, row.id)),
  );

/**
 * Cancels a queued or running job. The worker does each item in one transaction and checks the
 * status at the start of each, so an item in flight finishes before this commits and nothing
 * after it starts: items done stay done, the rest stay where they were. Cancelling a cancelled
 * job answers it unchanged; a completed or failed one is refused.
 */
export function cancelOperation(deps: AppDeps, workspaceId: string, id: string): Operation {
  return deps.db
    .transaction(() => {
      checkCancellable(id, operationById(deps.db, workspaceId, id));
      markEnded(deps.db, id, "cancelled", null, deps.clock.now());
      return getOperation(deps, workspaceId, id);
    })
    .immediate();
}
