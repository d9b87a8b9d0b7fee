import type { EventData } from "@/contract/events";
import {
  canMoveTransfer,
  type Transfer,
  terminalTransferStates,
  transferMoves,
  type UpdateTransferBody,
} from "@/contract/transfers";
import type { AppDeps } from "@/server/deps";
import { notFound, validationFailed } from "@/server/lib/api-error";
import { toIso, toIsoOrNull } from "@/server/lib/clock";
import { workspacePaths } from "./transfer-access";
import {
  byId,
  cancelUploads,
  firstPaths,
  listTransferRows,
  markReported,
  type TransferPathRow,
  type TransferProgress,
  type TransferRow,
  updateProgress,
  uploadsInFlight,
  usageBytes,
} from "./transfers.repository";

/** Job kind that copies a completed send's files into its deliverTo folders. */
export const DELIVER_JOB = "transfers.deliver";
export const RECORD_PATHS = 100;
/** A list item names its first few paths (enough to describe it): a monitor polls the list. */
export const LIST_PATHS = 3;
export const EVENT_PATHS = 100;

/** A transfer as the API shows it, from its row, its first paths and its usage's bytes. */
export function transferView(
  row: TransferRow,
  paths: Pick<TransferPathRow, "source" | "destination">[],
  usage: number,
): Transfer {
  return {
    id: row.id,
    direction: row.direction,
    client: row.client,
    engine: row.engine,
    status: row.status,
    streams: row.streams,
    priority: row.priority,
    usageId: row.usage_id,
    filesTotal: row.files_total,
    filesDone: row.files_done,
    bytesTotal: row.bytes_total,
    bytesDone: row.bytes_done,
    avgRateKbps: row.avg_rate_kbps,
    startedAt: toIsoOrNull(row.started_at),
    finishedAt: toIsoOrNull(row.finished_at),
    errorCode: row.error_code,
    errorMessage: row.error_message,
    createdAt: toIso(row.created_at),
    rateKbps: row.rate_kbps,
    updatedAt: toIso(row.updated_at),
    pathsCount: row.paths_count,
    paths: paths.map((p) => ({ source: p.source, destination: p.destination })),
    sourceRoot: row.source_root,
    destinationRoot: row.destination_root,
    contentProtected: row.protection_salt !== null,
    deliverTo: JSON.parse(row.deliver_to) as string[],
    deviceId: row.device_id,
    shareId: row.share_id,
    portalId: row.portal_id,
    filesCommitted: row.files_committed,
    bytesServed: row.bytes_served,
    usageBytes: usage,
  };
}

/** What the progress units need of the service's parts. */
export type TransferDeps = Pick<AppDeps, "db" | "clock" | "events" | "jobs">;

export const toTransfer = (
  deps: Pick<AppDeps, "db">,
  row: TransferRow,
  pathsShown = RECORD_PATHS,
) => transferView(row, firstPaths(deps.db, row.id, pathsShown), usageBytes(deps.db, row.usage_id));

export const transferNotFound = (id: string) => notFound(`Transfer ${id}`, { transferId: id });

export function getTransfer(deps: TransferDeps, workspaceId: string, id: string): Transfer {
  const row = byId(deps.db, workspaceId, id);
  if (!row) throw transferNotFound(id);
  return toTransfer(deps, row);
}

export const listTransfers = (
  deps: TransferDeps,
  workspaceId: string,
  q: Parameters<typeof listTransferRows>[2],
): Transfer[] =>
  listTransferRows(deps.db, workspaceId, q).map((row) => toTransfer(deps, row, LIST_PATHS));

/** Counters never go backwards and never pass their totals; a total never drops below done. */
export function checkCounters(row: TransferRow, body: UpdateTransferBody) {
  const filesTotal = body.filesTotal ?? row.files_total;
  const bytesTotal = body.bytesTotal ?? row.bytes_total;
  const counters = [
    { field: "filesDone", done: body.filesDone, before: row.files_done, total: filesTotal },
    { field: "bytesDone", done: body.bytesDone, before: row.bytes_done, total: bytesTotal },
  ];
  for (const c of counters) {
    if (c.done < c.before)
      throw validationFailed(
        c.field,
        `${c.field} cannot go back from ${c.before} to ${c.done}`,
        "counter_backwards",
        { details: { stored: c.before, reported: c.done } },
      );
    if (c.total !== null && c.done > c.total)
      throw validationFailed(
        c.field,
        `${c.field} ${c.done} is more than the total ${c.total}`,
        "counter_exceeds_total",
        { details: { reported: c.done, total: c.total } },
      );
  }
  return { filesTotal, bytesTotal };
}

/**
 * `completed` means the bytes really moved: a send's files are all committed by the node (none
 * still uploading), a receive's reported bytes were all served by the node.
 */
export function checkCompleted(
  row: TransferRow,
  body: UpdateTransferBody,
  filesTotal: number | null,
  inFlight: number,
) {
  if (row.direction === "send") {
    // filesTotal starts as the declared fileCount; without either, the files the engine reports.
    const expected = filesTotal ?? body.filesDone;
    if (row.files_committed < expected || inFlight > 0)
      throw validationFailed(
        "status",
        `The node has committed ${row.files_committed} of ${expected} files${inFlight ? ` (${inFlight} still uploading)` : ""}`,
        "not_committed",
        {
          details: {
            filesCommitted: row.files_committed,
            filesTotal: expected,
            uploading: inFlight,
          },
        },
      );
  } else if (row.bytes_served < body.bytesDone) {
    throw validationFailed(
      "status",
      `The node has served ${row.bytes_served} of the ${body.bytesDone} bytes reported`,
      "not_served",
      { details: { bytesServed: row.bytes_served, bytesDone: body.bytesDone } },
    );
  }
}

/** The state machine's verdict on a report: `invalid_transition` naming the moves allowed. */
export function checkTransition(row: TransferRow, to: UpdateTransferBody["status"]) {
  const from = row.status;
  if (canMoveTransfer(from, to)) return;
  const allowed = terminalTransferStates.includes(from) ? [] : [from, ...transferMoves[from]];
  throw validationFailed("status", `A ${from} transfer cannot become ${to}`, "invalid_transition", {
    details: { from, to, allowed },
  });
}

/** What a checked report writes: the engine's figures and the service's times and rates. */
export function progressOf(
  row: TransferRow,
  body: UpdateTransferBody,
  totals: { filesTotal: number | null; bytesTotal: number | null },
  now: number,
): TransferProgress {
  const to = body.status;
  const startedAt =
    row.started_at ?? (to === "running" || to === "completed" ? (row.token_used_at ?? now) : null);
  const seconds = startedAt === null ? 0 : (now - startedAt) / 1000;
  return {
    status: to,
    files_done: body.filesDone,
    bytes_done: body.bytesDone,
    files_total: totals.filesTotal,
    bytes_total: totals.bytesTotal,
    rate_kbps: body.rateKbps ?? row.rate_kbps,
    avg_rate_kbps: seconds > 0 ? (body.bytesDone * 8) / 1000 / seconds : row.avg_rate_kbps,
    error_code: body.errorCode ?? row.error_code,
    error_message: body.errorMessage ?? row.error_message,
    started_at: startedAt,
    finished_at: terminalTransferStates.includes(to) ? now : null,
    updated_at: now,
  };
}

/** A completed send with deliverTo folders queues their copies, once per transfer. */
export const needsDelivery = (row: TransferRow) =>
  row.status === "completed" && row.direction === "send" && row.deliver_to !== "[]";

export const deliverJob = (id: string) =>
  [DELIVER_JOB, { transferId: id }, { uniqueKey: `${DELIVER_JOB}:${id}` }] as const;

/**
 * An engine's progress report (docs/api-decisions.md, Transfers): the move is checked against
 * the state machine, the counters against what is stored, `completed` against what the node did.
 * The service sets startedAt, finishedAt and avgRateKbps. A terminal move records its event in
 * the same transaction, once; a send that fails or is cancelled drops its uploads in flight; a
 * completed send with deliverTo queues the copies.
 */
export function updateTransfer(
  deps: TransferDeps,
  workspaceId: string,
  id: string,
  body: UpdateTransferBody,
): Transfer {
  const { db } = deps;
  return db
    .transaction((): Transfer => {
      const now = deps.clock.now();
      const row = byId(db, workspaceId, id);
      if (!row) throw transferNotFound(id);
      const to = body.status;
      checkTransition(row, to);
      const totals = checkCounters(row, body);
      if (to === "completed") {
        const inFlight = row.direction === "send" ? uploadsInFlight(db, row.id) : 0;
        checkCompleted(row, body, totals.filesTotal, inFlight);
      }
      const terminal = terminalTransferStates.includes(to);
      updateProgress(db, id, progressOf(row, body, totals, now));
      const updated = byId(db, workspaceId, id)!;
      if (terminal && row.direction === "send" && to !== "completed") cancelUploads(db, id, now);
      if (terminal) report(deps, updated);
      if (needsDelivery(updated)) deps.jobs.enqueue(...deliverJob(id));
      return toTransfer(deps, updated);
    })
    .immediate();
}

/** The event a terminal transfer records, once: none for a cancel. */
export function terminalEvent(
  row: TransferRow,
  paths: () => Pick<TransferPathRow, "source" | "destination">[],
) {
  if (row.status === "completed") {
    const data: EventData<"transfer.completed"> = {
      transferId: row.id,
      direction: row.direction,
      client: row.client,
      files: row.files_done,
      bytes: row.bytes_done,
      rateKbps: row.avg_rate_kbps,
      paths: workspacePaths(row, paths()),
      finishedAt: toIso(row.finished_at!),
    };
    return { type: "transfer.completed", data };
  }
  if (row.status !== "failed") return null;
  const data: EventData<"transfer.failed"> = {
    transferId: row.id,
    direction: row.direction,
    client: row.client,
    filesDone: row.files_done,
    bytesDone: row.bytes_done,
    errorCode: row.error_code,
    errorMessage: row.error_message,
  };
  return { type: "transfer.failed", data };
}

/** `transfer.completed` or `transfer.failed`, once per transfer; a cancel is not an event. */
function report(deps: TransferDeps, row: TransferRow) {
  if (row.status === "cancelled" || !markReported(deps.db, row.id)) return;
  const event = terminalEvent(row, () => firstPaths(deps.db, row.id, EVENT_PATHS));
  if (event) deps.events.record(row.workspace_id, event.type, event.data);
}
