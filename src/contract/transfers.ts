import { z } from "zod";
import { count, dateTime, PATH_PATTERN, PATH_REJECTED, queryBoolean, queryInteger } from "./common";
import {
  DELIVER_TO_MAX,
  GROWING_FILE_WAIT_MAX,
  joinPath,
  MAX_PATH_LENGTH,
  normalizeName,
  PROTECTION_PASSWORD_MAX,
  PROTECTION_PASSWORD_MIN,
  pathProblem,
  TRANSFER_ERROR_MESSAGE_MAX,
  TRANSFER_PATHS_MAX,
  TRANSFER_STREAMS_DEFAULT,
  TRANSFER_STREAMS_MAX,
  TRANSFERS_LIST_DEFAULT,
  TRANSFERS_LIST_MAX,
  transferClients,
  transferStates,
} from "./rules";

export {
  CONTENT_PASSWORD_HEADER,
  canMoveTransfer,
  DELIVER_TO_MAX,
  GROWING_FILE_WAIT_MAX,
  NODE_BUSY_RETRY_AFTER_SECONDS,
  PROGRESS_MIN_INTERVAL_MS,
  PROTECTION_PASSWORD_MAX,
  PROTECTION_PASSWORD_MIN,
  TRANSFER_ENGINE,
  TRANSFER_PATHS_MAX,
  TRANSFER_RESUME_WINDOW_SECONDS,
  TRANSFER_START_WINDOW_SECONDS,
  TRANSFER_STREAMS_DEFAULT,
  TRANSFER_STREAMS_MAX,
  type TransferState,
  terminalTransferStates,
  transferMoves,
  transferStates,
} from "./rules";

export const transferStateSchema = z.enum(transferStates).meta({ id: "TransferState" });
export const transferDirectionSchema = z.enum(["send", "receive"]);
export type TransferDirection = z.infer<typeof transferDirectionSchema>;
export const transferPrioritySchema = z.enum(["normal", "deadline", "background"]);
export type TransferPriority = z.infer<typeof transferPrioritySchema>;
export const transferClientSchema = z.enum(transferClients);
export type TransferClient = z.infer<typeof transferClientSchema>;

/** A path on the engine's machine: any text the engine understands, bounded like a workspace path. */
const localPath = z.string().max(MAX_PATH_LENGTH);

export const transferPathSchema = z
  .looseObject({
    source: localPath.meta({
      description: "send: a file or folder on the engine's machine; receive: a workspace path",
    }),
    destination: localPath.meta({
      description: "send: the workspace path it becomes; receive: where it lands on the machine",
    }),
  })
  .meta({ id: "TransferPath" });
export type TransferPath = z.infer<typeof transferPathSchema>;

/**
 * Where the workspace side of a transfer's paths (and its root) breaks the path rules, each with
 * the body member it is at: the create body's schema refuses them (`path_rejected`), and so does
 * the service for a transfer another module starts without the schema.
 */
export function workspaceSideProblems(body: {
  direction: "send" | "receive";
  paths: TransferPath[];
  destinationRoot?: string;
  sourceRoot?: string;
}): { path: (string | number)[]; message: string }[] {
  const side = body.direction === "send" ? "destination" : "source";
  const root = body.direction === "send" ? "destinationRoot" : "sourceRoot";
  const problems: { path: (string | number)[]; message: string }[] = [];
  const check = (value: string, path: (string | number)[], allowEmpty: boolean) => {
    if (value === "" && allowEmpty) return true;
    const problem = pathProblem(normalizeName(value));
    if (problem) problems.push({ path, message: `Path ${problem}` });
    return !problem;
  };
  const rootPath = body[root] ?? "";
  const rootOk = check(rootPath, [root], true);
  for (const [i, item] of body.paths.entries()) {
    const at = ["paths", i, side];
    // Joined to its root too (the length bound): the node refuses every file of a longer one.
    if (check(item[side], at, rootPath !== "") && rootOk && rootPath && item[side])
      check(joinPath(rootPath, item[side]), at, false);
  }
  return problems;
}

export const createTransferBodySchema = z
  .object({
    direction: transferDirectionSchema,
    paths: z.array(transferPathSchema).min(1).max(TRANSFER_PATHS_MAX),
    destinationRoot: localPath.optional().meta({
      description:
        "Prefix of every destination (send: a workspace folder; receive: a folder on the machine)",
    }),
    sourceRoot: localPath.optional().meta({
      description:
        "Prefix of every source (send: a folder on the machine; receive: a workspace folder)",
    }),
    fileCount: z.int().min(0).optional().meta({ description: "Files the engine expects to move" }),
    totalBytes: z.int().min(0).optional().meta({
      description:
        "Bytes the engine expects to move; the node refuses a transfer that goes past it",
    }),
    streams: z.int().min(1).max(TRANSFER_STREAMS_MAX).default(TRANSFER_STREAMS_DEFAULT).meta({
      description: "Files in flight at once; the node refuses more concurrent uploads than this",
    }),
    growingFileWaitSeconds: z.int().min(1).max(GROWING_FILE_WAIT_MAX).optional().meta({
      description:
        "send: the engine waits until a file has not grown for this long before sending it",
    }),
    contentProtectionPassword: z
      .string()
      .min(PROTECTION_PASSWORD_MIN)
      .max(PROTECTION_PASSWORD_MAX)
      .optional()
      .meta({
        description:
          "send: the files are stored encrypted with a key derived from it; only an engine that sends it can read them. Never stored, never returned",
      }),
    priority: transferPrioritySchema.default("normal"),
    deliverTo: z
      .array(
        z
          .string()
          .max(MAX_PATH_LENGTH)
          .meta({ pattern: `^$|${PATH_PATTERN}` }),
      )
      .max(DELIVER_TO_MAX)
      .default([])
      .meta({
        description:
          "send: more workspace folders that each get the sent files when the transfer completes (a copy costs no bytes)",
      }),
    rawAscp: z.boolean().optional().meta({ description: "Accepted and recorded; no effect here" }),
    speedMode: z
      .boolean()
      .optional()
      .meta({ description: "Accepted and recorded; no effect here" }),
    client: transferClientSchema.default("agent"),
    deviceId: z.string().max(200).optional(),
    shareId: z.string().max(64).optional(),
    portalId: z.string().max(64).optional(),
  })
  .superRefine((body, ctx) => {
    for (const { path, message } of workspaceSideProblems(body))
      ctx.addIssue({ code: "custom", message, path, params: { code: PATH_REJECTED } });
  })
  .meta({
    id: "CreateTransferBody",
    description:
      "The workspace side (send: `destinationRoot` and each `destination`; receive: `sourceRoot` and each `source`) follows the path rules (`path_rejected`); an item's may be empty under a root that is not",
    anyOf: (["send", "receive"] as const).flatMap((direction) => {
      const [side, root] =
        direction === "send" ? ["destination", "destinationRoot"] : ["source", "sourceRoot"];
      const items = (pattern: string) => ({
        items: { properties: { [side]: { pattern } }, required: [side] },
      });
      return [
        {
          properties: {
            direction: { const: direction },
            [root]: { pattern: PATH_PATTERN },
            paths: items(`^$|${PATH_PATTERN}`),
          },
          required: [root],
        },
        {
          properties: {
            direction: { const: direction },
            [root]: { const: "" },
            paths: items(PATH_PATTERN),
          },
        },
      ];
    }),
  });
export type CreateTransferBody = z.input<typeof createTransferBodySchema>;

/**
 * What the engine needs, handed to it unchanged (docs/api-decisions.md, The transfer spec).
 * `token` is a secret shown once: the service keeps only its hash.
 */
export const transferSpecSchema = z
  .looseObject({
    version: z.literal(1),
    transferId: z.string(),
    direction: transferDirectionSchema,
    client: transferClientSchema,
    engine: z.string().meta({ description: "The protocol the node speaks (`tus/1.0.0`)" }),
    node: z.looseObject({
      url: z
        .string()
        .meta({ description: "Base URL of the data node, e.g. http://host:port/node/v1" }),
      uploads: z.string().meta({ description: "The tus creation endpoint (send)" }),
      files: z.string().meta({ description: "GET ?path= for one file with Range (receive)" }),
      zip: z.string().meta({
        description:
          "GET ?path= for a folder (or no path: the whole transfer) as a streamed ZIP (receive)",
      }),
    }),
    token: z
      .string()
      .meta({ description: "Bearer token for the node, bound to this transfer and its paths" }),
    expiresAt: dateTime().meta({
      description: "Start the transfer before this; once started it can resume later",
    }),
    progress: z.looseObject({
      url: z.string().meta({ description: "PATCH here (with an API key) to report progress" }),
      minIntervalMs: count(),
    }),
    paths: z.array(transferPathSchema),
    sourceRoot: z.string(),
    destinationRoot: z.string(),
    fileCount: count().nullable(),
    totalBytes: count().nullable(),
    streams: count(),
    priority: transferPrioritySchema,
    growingFileWaitSeconds: count().nullable(),
    deliverTo: z.array(z.string()),
    contentProtection: z.boolean().meta({
      description: "The engine must send the password in `Consign-Content-Password` to the node",
    }),
    chunkSizeBytes: count().meta({ description: "The upload chunk size the node prefers" }),
  })
  .meta({ id: "TransferSpec" });
export type TransferSpec = z.infer<typeof transferSpecSchema>;

export const createTransferResponseSchema = z
  .looseObject({
    transferId: z.string(),
    transferSpec: transferSpecSchema,
    expiresAt: dateTime(),
  })
  .meta({ id: "CreatedTransfer" });
export type CreatedTransfer = z.infer<typeof createTransferResponseSchema>;

/** Transfer record (spec); members after `createdAt` are extensions, and others may appear. */
export const transferSchema = z
  .looseObject({
    id: z.string(),
    direction: transferDirectionSchema,
    client: z.string(),
    engine: z.string(),
    status: transferStateSchema,
    streams: count(),
    priority: z.string(),
    usageId: z.string(),
    filesTotal: count().nullable(),
    filesDone: count(),
    bytesTotal: count().nullable(),
    bytesDone: count(),
    avgRateKbps: z.number().nullable(),
    startedAt: dateTime().nullable(),
    finishedAt: dateTime().nullable(),
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
    createdAt: dateTime(),
    rateKbps: z
      .number()
      .nullable()
      .optional()
      .meta({ description: "The last rate the engine reported" }),
    updatedAt: dateTime().optional(),
    pathsCount: count().optional(),
    paths: z
      .array(transferPathSchema)
      .optional()
      .meta({ description: "The first 100 path items (the first 3 in a list)" }),
    contentProtected: z.boolean().optional(),
    deliverTo: z.array(z.string()).optional(),
    deviceId: z.string().nullable().optional(),
    shareId: z.string().nullable().optional(),
    portalId: z.string().nullable().optional(),
    filesCommitted: z
      .int()
      .optional()
      .meta({ description: "send: files the node has verified and committed" }),
    bytesServed: count().optional().meta({ description: "receive: bytes the node has served" }),
  })
  .meta({ id: "Transfer" });
export type Transfer = z.infer<typeof transferSchema>;

export const updateTransferBodySchema = z
  .object({
    status: transferStateSchema,
    bytesDone: z.int().min(0),
    filesDone: z.int().min(0),
    bytesTotal: z.int().min(0).optional(),
    filesTotal: z.int().min(0).optional(),
    rateKbps: z.number().min(0).optional(),
    errorCode: z.string().max(100).optional(),
    errorMessage: z.string().max(TRANSFER_ERROR_MESSAGE_MAX).optional(),
  })
  .meta({ id: "UpdateTransferBody" });
export type UpdateTransferBody = z.input<typeof updateTransferBodySchema>;

export const listTransfersQuerySchema = z.object({
  status: transferStateSchema.optional(),
  direction: transferDirectionSchema.optional(),
  active: queryBoolean
    .optional()
    .meta({ description: "Only queued, running and paused transfers" }),
  limit: queryInteger(1, TRANSFERS_LIST_MAX).default(TRANSFERS_LIST_DEFAULT),
});
