import { randomBytes } from "node:crypto";
import type { z } from "zod";
import type { EventData } from "@/contract/events";
import { normalizeName, parentOf, pathProblem } from "@/contract/rules";
import {
  type CreatedTransfer,
  canMoveTransfer,
  type createTransferBodySchema,
  PROGRESS_MIN_INTERVAL_MS,
  TRANSFER_ENGINE,
  TRANSFER_START_WINDOW_SECONDS,
  type Transfer,
  type TransferSpec,
  terminalTransferStates,
  transferMoves,
  type UpdateTransferBody,
} from "@/contract/transfers";
import type { AppDeps } from "@/server/deps";
import { notFound, pathRejected, validationFailed } from "@/server/lib/api-error";
import { toIso, toIsoOrNull } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { byPath } from "@/server/modules/files/files.repository";
import { subtreeTotals } from "@/server/modules/files/tree.repository";
import { issueTransferToken, workspacePaths } from "./transfer-access";
import {
  byId,
  cancelUploads,
  firstPaths,
  insertTransfer,
  listTransferRows,
  markReported,
  type TransferRow,
  updateProgress,
  uploadsInFlight,
  usageBytes,
} from "./transfers.repository";

/** The tus chunk size the spec asks engines to use: big enough that a PATCH's overhead is noise. */
export const TRANSFER_CHUNK_BYTES = 8 * 1024 * 1024;
/** Job kind that copies a completed send's files into its deliverTo folders. */
export const DELIVER_JOB = "transfers.deliver";
const RECORD_PATHS = 100;
/** A list item names its first few paths (enough to describe it): a monitor polls the list. */
const LIST_PATHS = 3;
const EVENT_PATHS = 100;

type CreateInput = z.output<typeof createTransferBodySchema>;

/** Where the request came in and who made it: the spec's URLs and the row's owner. */
export interface Caller {
  workspaceId: string;
  /** null: a share's recipient, who has a link and no key. */
  keyId: string | null;
  /** The request's origin, used when no PUBLIC_URL is configured. */
  origin: string;
}

export function toTransfer(deps: AppDeps, row: TransferRow, pathsShown = RECORD_PATHS): Transfer {
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
    paths: firstPaths(deps.db, row.id, pathsShown).map((p) => ({
      source: p.source,
      destination: p.destination,
    })),
    sourceRoot: row.source_root,
    destinationRoot: row.destination_root,
    contentProtected: row.protection_salt !== null,
    deliverTo: JSON.parse(row.deliver_to) as string[],
    deviceId: row.device_id,
    shareId: row.share_id,
    portalId: row.portal_id,
    filesCommitted: row.files_committed,
    bytesServed: row.bytes_served,
    usageBytes: usageBytes(deps.db, row.usage_id),
  };
}

/** A workspace path as stored: NFC, as every other workspace path (files.service). */
const workspaceSide = (p: string) => normalizeName(p);

/**
 * Options that only mean something for a send: given on a receive they would silently do
 * nothing, so they are refused.
 */
function refuseSendOnly(body: CreateInput) {
  const given = [
    body.deliverTo.length > 0 ? "deliverTo" : null,
    body.growingFileWaitSeconds !== undefined ? "growingFileWaitSeconds" : null,
  ].filter((f): f is string => f !== null);
  if (given.length > 0)
    throw validationFailed(
      given.map((field) => ({ field, message: "only for a send", code: "send_only" })),
      `${given.join(", ")}: only for a send`,
    );
}

/**
 * A send's files land under its destinations, and deliverTo folders receive copies: a file
 * standing where one of those folders must be would refuse every commit, so the request is
 * refused instead (`file_in_the_way`, naming the file). A destination may itself be a file (a
 * file sent there replaces its content, keeping a version).
 */
function refuseFilesInTheWay(
  deps: AppDeps,
  workspaceId: string,
  destinationRoot: string,
  paths: { source: string; destination: string }[],
  deliverTo: string[],
) {
  const destinations = workspacePaths(
    { direction: "send", source_root: "", destination_root: destinationRoot },
    paths,
  );
  const folders = new Set([...destinations.map(parentOf), ...deliverTo]);
  const seen = new Set<string>();
  for (let folder of folders) {
    for (; folder !== "" && !seen.has(folder); folder = parentOf(folder)) {
      seen.add(folder);
      const entry = byPath(deps.db, workspaceId, folder);
      if (entry?.is_file)
        throw validationFailed("paths", `"${folder}" is a file, not a folder`, "file_in_the_way", {
          issue: `"${folder}" is a file`,
          details: { path: folder },
        });
    }
  }
}

/**
 * What a receive will move, counted from the tree: each source must exist (404 with
 * `details.path`), and a source inside another is counted once.
 */
function receiveTotals(
  deps: AppDeps,
  workspaceId: string,
  sourceRoot: string,
  paths: { source: string; destination: string }[],
) {
  const sources = [
    ...new Set(
      workspacePaths(
        { direction: "receive", source_root: sourceRoot, destination_root: "" },
        paths,
      ),
    ),
  ];
  const tops = sources.filter(
    (p) => !sources.some((q) => q !== p && (q === "" || p.startsWith(`${q}/`))),
  );
  const totals = { files: 0, bytes: 0 };
  for (const p of tops) {
    const entry = deps.files.get(workspaceId, p);
    const size = entry.is_file
      ? { files: 1, bytes: entry.size }
      : subtreeTotals(deps.db, workspaceId, p);
    totals.files += size.files;
    totals.bytes += size.bytes;
  }
  return totals;
}

/**
 * Stores the transfer (queued) with its paths in one transaction and returns the spec with the
 * token, which is shown only here. A receive's sources must all exist, and its totals are the
 * service's count of them; a send's totals are what the engine declared.
 */
export function createTransfer(
  deps: AppDeps,
  caller: Caller,
  body: CreateInput,
  /** A share's receive: the totals of its snapshot files (the live tree may differ since). */
  snapshotTotals?: { files: number; bytes: number },
): CreatedTransfer {
  const { db, clock, config } = deps;
  const send = body.direction === "send";
  if (!send) refuseSendOnly(body);
  const deliverTo = body.deliverTo.map(workspaceSide);
  for (const [i, folder] of deliverTo.entries()) {
    const problem = pathProblem(folder);
    if (problem) throw pathRejected(`deliverTo.${i}`, `Path ${problem}`);
  }
  const sourceRoot = send ? (body.sourceRoot ?? "") : workspaceSide(body.sourceRoot ?? "");
  const destinationRoot = send
    ? workspaceSide(body.destinationRoot ?? "")
    : (body.destinationRoot ?? "");
  const paths = body.paths.map((p) =>
    send
      ? { source: p.source, destination: workspaceSide(p.destination) }
      : { source: workspaceSide(p.source), destination: p.destination },
  );
  const { token, hash } = issueTransferToken();
  return db
    .transaction((): CreatedTransfer => {
      const now = clock.now();
      if (send) refuseFilesInTheWay(deps, caller.workspaceId, destinationRoot, paths, deliverTo);
      const totals = send
        ? { files: body.fileCount ?? null, bytes: body.totalBytes ?? null }
        : (snapshotTotals ?? receiveTotals(deps, caller.workspaceId, sourceRoot, paths));
      const id = newId();
      const expiresAt = now + TRANSFER_START_WINDOW_SECONDS * 1000;
      insertTransfer(
        db,
        {
          id,
          workspace_id: caller.workspaceId,
          key_id: caller.keyId,
          direction: body.direction,
          client: body.client,
          engine: TRANSFER_ENGINE,
          streams: body.streams,
          priority: body.priority,
          usage_id: `usg_${newId()}`,
          files_total: totals.files,
          bytes_total: totals.bytes,
          source_root: sourceRoot,
          destination_root: destinationRoot,
          file_count: body.fileCount ?? null,
          total_bytes: body.totalBytes ?? null,
          growing_file_wait: body.growingFileWaitSeconds ?? null,
          deliver_to: JSON.stringify(deliverTo),
          // The password itself is never kept: the node derives the key from it and this salt.
          protection_salt:
            body.contentProtectionPassword === undefined ? null : randomBytes(16).toString("hex"),
          options: JSON.stringify({
            rawAscp: body.rawAscp ?? null,
            speedMode: body.speedMode ?? null,
          }),
          device_id: body.deviceId ?? null,
          share_id: body.shareId ?? null,
          portal_id: body.portalId ?? null,
          paths_count: paths.length,
          token_hash: hash,
          token_expires_at: expiresAt,
          created_at: now,
        },
        paths,
      );
      const row = byId(db, caller.workspaceId, id)!;
      const apiBase = config.publicUrl ?? caller.origin;
      const nodeUrl = config.nodeUrl ?? `${apiBase}/node/v1`;
      const transferSpec: TransferSpec = {
        version: 1,
        transferId: id,
        direction: row.direction,
        client: body.client,
        engine: TRANSFER_ENGINE,
        node: {
          url: nodeUrl,
          uploads: `${nodeUrl}/uploads`,
          files: `${nodeUrl}/files`,
          zip: `${nodeUrl}/zip`,
        },
        token,
        expiresAt: toIso(expiresAt),
        progress: {
          url: `${apiBase}/v1/workspaces/${encodeURIComponent(caller.workspaceId)}/transfers/${id}`,
          minIntervalMs: PROGRESS_MIN_INTERVAL_MS,
        },
        paths,
        sourceRoot,
        destinationRoot,
        fileCount: totals.files,
        totalBytes: totals.bytes,
        streams: row.streams,
        priority: row.priority,
        growingFileWaitSeconds: row.growing_file_wait,
        deliverTo,
        contentProtection: row.protection_salt !== null,
        chunkSizeBytes: TRANSFER_CHUNK_BYTES,
      };
      return { transferId: id, transferSpec, expiresAt: toIso(expiresAt) };
    })
    .immediate();
}

export function getTransfer(deps: AppDeps, workspaceId: string, id: string): Transfer {
  const row = byId(deps.db, workspaceId, id);
  if (!row) throw notFound(`Transfer ${id}`, { transferId: id });
  return toTransfer(deps, row);
}

export const listTransfers = (
  deps: AppDeps,
  workspaceId: string,
  q: Parameters<typeof listTransferRows>[2],
): Transfer[] =>
  listTransferRows(deps.db, workspaceId, q).map((row) => toTransfer(deps, row, LIST_PATHS));

/** Counters never go backwards and never pass their totals; a total never drops below done. */
function checkCounters(row: TransferRow, body: UpdateTransferBody) {
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
function checkCompleted(
  deps: AppDeps,
  row: TransferRow,
  body: UpdateTransferBody,
  filesTotal: number | null,
) {
  if (row.direction === "send") {
    // filesTotal starts as the declared fileCount; without either, the files the engine reports.
    const expected = filesTotal ?? body.filesDone;
    const inFlight = uploadsInFlight(deps.db, row.id);
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

/**
 * An engine's progress report (docs/api-decisions.md, Transfers): the move is checked against
 * the state machine, the counters against what is stored, `completed` against what the node did.
 * The service sets startedAt, finishedAt and avgRateKbps. A terminal move records its event in
 * the same transaction, once; a send that fails or is cancelled drops its uploads in flight; a
 * completed send with deliverTo queues the copies.
 */
export function updateTransfer(
  deps: AppDeps,
  workspaceId: string,
  id: string,
  body: UpdateTransferBody,
): Transfer {
  const { db } = deps;
  return db
    .transaction((): Transfer => {
      const now = deps.clock.now();
      const row = byId(db, workspaceId, id);
      if (!row) throw notFound(`Transfer ${id}`, { transferId: id });
      const from = row.status;
      const to = body.status;
      if (!canMoveTransfer(from, to)) {
        const allowed = terminalTransferStates.includes(from) ? [] : [from, ...transferMoves[from]];
        throw validationFailed(
          "status",
          `A ${from} transfer cannot become ${to}`,
          "invalid_transition",
          { details: { from, to, allowed } },
        );
      }
      const { filesTotal, bytesTotal } = checkCounters(row, body);
      if (to === "completed") checkCompleted(deps, row, body, filesTotal);
      const terminal = terminalTransferStates.includes(to);
      const startedAt =
        row.started_at ??
        (to === "running" || to === "completed" ? (row.token_used_at ?? now) : null);
      const finishedAt = terminal ? now : null;
      const seconds = startedAt === null ? 0 : (now - startedAt) / 1000;
      updateProgress(db, id, {
        status: to,
        files_done: body.filesDone,
        bytes_done: body.bytesDone,
        files_total: filesTotal,
        bytes_total: bytesTotal,
        rate_kbps: body.rateKbps ?? row.rate_kbps,
        avg_rate_kbps: seconds > 0 ? (body.bytesDone * 8) / 1000 / seconds : row.avg_rate_kbps,
        error_code: body.errorCode ?? row.error_code,
        error_message: body.errorMessage ?? row.error_message,
        started_at: startedAt,
        finished_at: finishedAt,
        updated_at: now,
      });
      const updated = byId(db, workspaceId, id)!;
      if (terminal && row.direction === "send" && to !== "completed") cancelUploads(db, id, now);
      if (terminal) report(deps, updated);
      if (to === "completed" && row.direction === "send" && updated.deliver_to !== "[]")
        deps.jobs.enqueue(DELIVER_JOB, { transferId: id }, { uniqueKey: `${DELIVER_JOB}:${id}` });
      return toTransfer(deps, updated);
    })
    .immediate();
}

/** `transfer.completed` or `transfer.failed`, once per transfer; a cancel is not an event. */
function report(deps: AppDeps, row: TransferRow) {
  if (row.status === "cancelled" || !markReported(deps.db, row.id)) return;
  if (row.status === "completed") {
    const data: EventData<"transfer.completed"> = {
      transferId: row.id,
      direction: row.direction,
      client: row.client,
      files: row.files_done,
      bytes: row.bytes_done,
      rateKbps: row.avg_rate_kbps,
      paths: workspacePaths(row, firstPaths(deps.db, row.id, EVENT_PATHS)),
      finishedAt: toIso(row.finished_at!),
    };
    deps.events.record(row.workspace_id, "transfer.completed", data);
  } else {
    const data: EventData<"transfer.failed"> = {
      transferId: row.id,
      direction: row.direction,
      client: row.client,
      filesDone: row.files_done,
      bytesDone: row.bytes_done,
      errorCode: row.error_code,
      errorMessage: row.error_message,
    };
    deps.events.record(row.workspace_id, "transfer.failed", data);
  }
}
