import { z } from "@hono/zod-openapi";
import {
  createTransferBodySchema,
  createTransferResponseSchema,
  listTransfersQuerySchema,
  NODE_BUSY_RETRY_AFTER_SECONDS,
  transferSchema,
  updateTransferBodySchema,
} from "@/contract/transfers";
import {
  apiRoute,
  errorResponse,
  json,
  jsonBody,
  pathId,
  retryAfterHeaders,
  workspaceParams,
} from "@/server/http/router";

const tags = ["Transfers"];
const read = ["files:read"] as const;
const write = ["files:write"] as const;
const transferParams = workspaceParams.extend({ transferId: pathId("transferId") });

/** Every data node at its NODE_MAX_TRANSFERS (docs/scale-out.md, Data nodes), or the key's rate. */
const nodeBusyResponse = {
  ...errorResponse(
    `\`node_busy\`: every data node already has its most live transfers (\`details.reason\` \`all_nodes_busy\`, \`details.retryAfterSeconds\` ${NODE_BUSY_RETRY_AFTER_SECONDS}); nothing was stored. Or \`rate_limited\`. \`Retry-After\` says when to try again.`,
  ),
  headers: retryAfterHeaders,
};

export const createTransferRoute = apiRoute({
  operationId: "createTransfer",
  method: "post",
  path: "/workspaces/{workspaceId}/transfers",
  tags,
  scopes: write,
  summary: "Start a transfer and get its spec",
  description:
    "Stores the transfer (`queued`) and returns the transfer spec to hand to an engine unchanged (docs/api-decisions.md, Transfers): the data node's URLs, a token bound to this transfer and its paths (shown only here; start within `expiresAt`, 15 minutes; a started transfer resumes for 7 days after its last activity), the progress URL and the create body's options. The workspace side of each path (a send's destinations, a receive's sources, with their root) and each `deliverTo` folder must be a valid workspace path (`path_rejected`). A file where a send's destination folder or a `deliverTo` folder must be: `validation_failed`, issue code `file_in_the_way`. A receive's sources must exist (404 with `details.path`) and its totals are counted by the service; `deliverTo` and `growingFileWaitSeconds` are only for a send (`validation_failed`, issue code `send_only`). `contentProtectionPassword` is never stored or returned.",
  request: { params: workspaceParams, body: jsonBody(createTransferBodySchema) },
  responses: {
    201: json(createTransferResponseSchema, "The transfer's id and spec"),
    429: nodeBusyResponse,
  },
});

export const listTransfersRoute = apiRoute({
  operationId: "listTransfers",
  method: "get",
  path: "/workspaces/{workspaceId}/transfers",
  tags,
  scopes: read,
  summary: "List recent transfers",
  description:
    "Newest first, at most `limit` (default 50, up to 200). `status`, `direction` and `active` (queued, running and paused) filter the list (extension query members).",
  request: { params: workspaceParams, query: listTransfersQuerySchema },
  responses: { 200: json(z.array(transferSchema), "Transfers, newest first") },
});

export const getTransferRoute = apiRoute({
  operationId: "getTransfer",
  method: "get",
  path: "/workspaces/{workspaceId}/transfers/{transferId}",
  tags,
  scopes: read,
  summary: "Read one transfer",
  description: "The transfer record with its counters. 404 for an unknown id.",
  request: { params: transferParams },
  responses: { 200: json(transferSchema, "The transfer") },
});

export const updateTransferRoute = apiRoute({
  operationId: "updateTransfer",
  method: "patch",
  path: "/workspaces/{workspaceId}/transfers/{transferId}",
  tags,
  scopes: write,
  summary: "Report a transfer's progress",
  description:
    "The engine reports status and counters (at most once a second, and on every change of state). A move the state machine refuses: `validation_failed`, issue code `invalid_transition`, `details` `{from, to, allowed}`; terminal states stay terminal. A counter lower than stored: `counter_backwards`; above its total: `counter_exceeds_total`. `completed` is refused for a send until the node has committed every file and none is still uploading (`not_committed`, `details` `{filesCommitted, filesTotal}`), and for a receive until the node has served the bytes reported (`not_served`). The service sets `startedAt`, `finishedAt` and `avgRateKbps`; `completed` and `failed` record `transfer.completed` / `transfer.failed` once. 404 for an unknown id.",
  request: { params: transferParams, body: jsonBody(updateTransferBodySchema) },
  responses: { 200: json(transferSchema, "The transfer as stored") },
});
