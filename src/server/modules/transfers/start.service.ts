import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { normalizeName, parentOf } from "@/contract/rules";
import {
  type CreatedTransfer,
  type CreateTransferBody,
  type createTransferBodySchema,
  PROGRESS_MIN_INTERVAL_MS,
  TRANSFER_ENGINE,
  TRANSFER_PATHS_MAX,
  TRANSFER_START_WINDOW_SECONDS,
  TRANSFER_STREAMS_DEFAULT,
  type TransferSpec,
  workspaceSideProblems,
} from "@/contract/transfers";
import type { AppDeps } from "@/server/deps";
import type { Caller } from "@/server/http/caller";
import {
  checkCount,
  checkPath,
  notFound,
  pathRejected,
  validationFailed,
} from "@/server/lib/api-error";
import { toIso } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { byPath, root } from "@/server/modules/files/files.repository";
import { subtreeTotals } from "@/server/modules/files/tree.repository";
import { leastBusyNode } from "./node-choice";
import { issueTransferToken, workspacePaths } from "./transfer-access";
import { EMBEDDED_NODE, TRANSFER_TOKEN_MAX_SECONDS } from "./transfer-token";
import { insertTransfer, type NewTransfer } from "./transfers.repository";

/** The tus chunk size the spec asks engines to use: big enough that a PATCH's overhead is noise. */
export const TRANSFER_CHUNK_BYTES = 8 * 1024 * 1024;

/** A create body as its schema leaves it: defaults filled, paths checked. */
export type CreateInput = z.output<typeof createTransferBodySchema>;
type Totals = { files: number | null; bytes: number | null };

/**
 * A transfer another module starts (a portal's upload, a share's download): the create body's
 * members, those the schema defaults left optional, and for a share's receive the totals of its
 * snapshot files (the live tree may differ since).
 */
export type StartTransferInput = CreateTransferBody & { totals?: { files: number; bytes: number } };

/** What creating a transfer needs of the service (SQLite's side). */
export type StartDeps = Pick<AppDeps, "db" | "clock" | "config">;

/**
 * A start from another module, as the create body's schema would have left it: its defaults
 * filled, the path count bounded and the workspace side of every path held to the path rules
 * (`path_rejected`). Its snapshot totals come apart.
 */
export function startBody(input: StartTransferInput) {
  const { totals, ...body } = input;
  checkCount("paths", body.paths.length, TRANSFER_PATHS_MAX);
  const problem = workspaceSideProblems(body)[0];
  if (problem) throw pathRejected(problem.path.join("."), problem.message);
  const checked: CreateInput = {
    ...body,
    streams: body.streams ?? TRANSFER_STREAMS_DEFAULT,
    priority: body.priority ?? "normal",
    deliverTo: body.deliverTo ?? [],
    client: body.client ?? "agent",
  };
  return { body: checked, totals };
}

/** Starts a transfer for another module, inside the caller's transaction when it holds one. */
export function startTransfer(
  deps: StartDeps,
  caller: Caller,
  input: StartTransferInput,
): CreatedTransfer {
  const { body, totals } = startBody(input);
  return openTransfer(deps, caller, planTransfer(body), totals);
}

/** POST /transfers: the body has passed its schema. */
export const createTransfer = (deps: StartDeps, caller: Caller, body: CreateInput) =>
  openTransfer(deps, caller, planTransfer(body));

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
 * standing where one of those folders (or a folder above one) must be would refuse every
 * commit, so the request is refused instead. These are the folders to look at, in the order
 * the first file found among them is named. A destination may itself be a file (a file sent
 * there replaces its content, keeping a version).
 */
export function foldersToBe(plan: TransferPlan): string[] {
  const { destinationRoot, paths, deliverTo } = plan.sides;
  const destinations = workspacePaths(
    { direction: "send", source_root: "", destination_root: destinationRoot },
    paths,
  );
  const seen = new Set<string>();
  for (let folder of new Set([...destinations.map(parentOf), ...deliverTo]))
    for (; folder !== "" && !seen.has(folder); folder = parentOf(folder)) seen.add(folder);
  return [...seen];
}

/** `file_in_the_way`, naming the file. */
export const fileInTheWay = (folder: string) =>
  validationFailed("paths", `"${folder}" is a file, not a folder`, "file_in_the_way", {
    issue: `"${folder}" is a file`,
    details: { path: folder },
  });

/**
 * The sources a receive's totals are counted from: each path's once, and a source inside
 * another left to the outer one.
 */
export function receiveTops(plan: TransferPlan) {
  const { sourceRoot, paths } = plan.sides;
  const sources = [
    ...new Set(
      workspacePaths(
        { direction: "receive", source_root: sourceRoot, destination_root: "" },
        paths,
      ),
    ),
  ];
  return sources.filter(
    (p) => !sources.some((q) => q !== p && (q === "" || p.startsWith(`${q}/`))),
  );
}

/** What a receive will move, counted from the tree: each source must exist (404, `details.path`). */
function receiveTotals(deps: StartDeps, workspaceId: string, plan: TransferPlan, now: number) {
  const totals = { files: 0, bytes: 0 };
  for (const p of receiveTops(plan)) {
    const entry = p === "" ? root(deps.db, workspaceId, now) : byPath(deps.db, workspaceId, p);
    if (!entry) throw notFound(`"${p}"`, { path: p });
    const size = entry.is_file
      ? { files: 1, bytes: entry.size }
      : subtreeTotals(deps.db, workspaceId, p);
    totals.files += size.files;
    totals.bytes += size.bytes;
  }
  return totals;
}

/** The body's paths and roots with their workspace side in NFC, and its deliverTo checked. */
function workspaceSides(body: CreateInput) {
  const send = body.direction === "send";
  const deliverTo = body.deliverTo.map(workspaceSide);
  for (const [i, folder] of deliverTo.entries()) checkPath(`deliverTo.${i}`, folder);
  return {
    deliverTo,
    sourceRoot: send ? (body.sourceRoot ?? "") : workspaceSide(body.sourceRoot ?? ""),
    destinationRoot: send
      ? workspaceSide(body.destinationRoot ?? "")
      : (body.destinationRoot ?? ""),
    paths: body.paths.map((p) =>
      send
        ? { source: p.source, destination: workspaceSide(p.destination) }
        : { source: workspaceSide(p.source), destination: p.destination },
    ),
  };
}

/** A create's checks that read nothing, and its paths as they will be stored. */
export interface TransferPlan {
  body: CreateInput;
  send: boolean;
  sides: ReturnType<typeof workspaceSides>;
}

export function planTransfer(body: CreateInput): TransferPlan {
  const send = body.direction === "send";
  if (!send) refuseSendOnly(body);
  return { body, send, sides: workspaceSides(body) };
}

/** A send's totals are what the engine declared. */
export const declaredTotals = ({ body }: TransferPlan): Totals => ({
  files: body.fileCount ?? null,
  bytes: body.totalBytes ?? null,
});

/**
 * The new transfer's row and what the caller gets: its id, its token (shown only here, its
 * hash stored) and the spec. Both engines store exactly this row.
 */
export function newTransfer(
  config: AppDeps["config"],
  caller: Caller,
  plan: TransferPlan,
  made: { totals: Totals; node: string; now: number },
): { row: NewTransfer; created: CreatedTransfer } {
  const { body, sides } = plan;
  const { totals, node, now } = made;
  const id = newId();
  const expiresAt = now + TRANSFER_START_WINDOW_SECONDS * 1000;
  const { token, hash } = issueTransferToken(
    config.dataDir,
    {
      v: 1,
      transferId: id,
      workspaceId: caller.workspaceId,
      direction: body.direction,
      node,
      issuedAt: now,
      startBy: expiresAt,
      expiresAt: now + TRANSFER_TOKEN_MAX_SECONDS * 1000,
      exact: Boolean(body.portalId),
    },
    workspacePaths(
      {
        direction: body.direction,
        source_root: sides.sourceRoot,
        destination_root: sides.destinationRoot,
      },
      sides.paths,
    ),
  );
  const row: NewTransfer = {
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
    source_root: sides.sourceRoot,
    destination_root: sides.destinationRoot,
    file_count: body.fileCount ?? null,
    total_bytes: body.totalBytes ?? null,
    growing_file_wait: body.growingFileWaitSeconds ?? null,
    deliver_to: JSON.stringify(sides.deliverTo),
    // The password itself is never kept: the node derives the key from it and this salt.
    protection_salt:
      body.contentProtectionPassword === undefined ? null : randomBytes(16).toString("hex"),
    options: JSON.stringify({ rawAscp: body.rawAscp ?? null, speedMode: body.speedMode ?? null }),
    device_id: body.deviceId ?? null,
    share_id: body.shareId ?? null,
    portal_id: body.portalId ?? null,
    paths_count: sides.paths.length,
    token_hash: hash,
    node,
    token_expires_at: expiresAt,
    created_at: now,
  };
  const transferSpec = specOf(config, caller, row, {
    ...sides,
    client: body.client,
    totals,
    token,
  });
  return { row, created: { transferId: id, transferSpec, expiresAt: toIso(expiresAt) } };
}

/**
 * Stores the transfer (queued) with its paths in one transaction and returns the spec with the
 * token. A receive's sources must all exist, and its totals are the service's count of them (or
 * a share's snapshot totals); a send's totals are what the engine declared.
 */
function openTransfer(
  deps: StartDeps,
  caller: Caller,
  plan: TransferPlan,
  snapshotTotals?: Totals,
): CreatedTransfer {
  const { db, clock } = deps;
  const ws = caller.workspaceId;
  return db
    .transaction((): CreatedTransfer => {
      const now = clock.now();
      if (plan.send) {
        const file = foldersToBe(plan).find((f) => byPath(db, ws, f)?.is_file);
        if (file !== undefined) throw fileInTheWay(file);
      }
      const totals = plan.send
        ? declaredTotals(plan)
        : (snapshotTotals ?? receiveTotals(deps, ws, plan, now));
      const node = leastBusyNode(deps, now);
      const { row, created } = newTransfer(deps.config, caller, plan, { totals, node, now });
      insertTransfer(db, row, plan.sides.paths);
      return created;
    })
    .immediate();
}

/** The spec handed to the engine unchanged (docs/api-decisions.md, The transfer spec). */
function specOf(
  config: AppDeps["config"],
  caller: Caller,
  row: NewTransfer,
  made: TransferPlan["sides"] & { client: CreateInput["client"]; totals: Totals; token: string },
): TransferSpec {
  const apiBase = config.publicUrl ?? caller.origin;
  const nodeUrl = row.node === EMBEDDED_NODE || !row.node ? `${apiBase}/node/v1` : row.node;
  return {
    version: 1,
    transferId: row.id,
    direction: row.direction,
    client: made.client,
    engine: TRANSFER_ENGINE,
    node: {
      url: nodeUrl,
      uploads: `${nodeUrl}/uploads`,
      files: `${nodeUrl}/files`,
      zip: `${nodeUrl}/zip`,
    },
    token: made.token,
    expiresAt: toIso(row.token_expires_at),
    progress: {
      url: `${apiBase}/v1/workspaces/${encodeURIComponent(caller.workspaceId)}/transfers/${row.id}`,
      minIntervalMs: PROGRESS_MIN_INTERVAL_MS,
    },
    paths: made.paths,
    sourceRoot: made.sourceRoot,
    destinationRoot: made.destinationRoot,
    fileCount: made.totals.files,
    totalBytes: made.totals.bytes,
    streams: row.streams,
    priority: row.priority,
    growingFileWaitSeconds: row.growing_file_wait,
    deliverTo: made.deliverTo,
    contentProtection: row.protection_salt !== null,
    chunkSizeBytes: TRANSFER_CHUNK_BYTES,
  };
}
