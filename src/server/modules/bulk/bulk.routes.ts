import { z } from "@hono/zod-openapi";
import {
  bulkJobSchema,
  createBulkJobBodySchema,
  listOperationsQuerySchema,
} from "@/contract/operations";
import { apiRoute, json, jsonBody, pathId, workspaceParams } from "@/server/http/router";

const tags = ["Files"];
const read = ["files:read"] as const;
const write = ["files:write"] as const;
const jobParams = workspaceParams.extend({ jobId: pathId("jobId") });

export const createBulkJobRoute = apiRoute({
  operationId: "createBulkJob",
  method: "post",
  path: "/workspaces/{workspaceId}/files/bulk",
  tags,
  scopes: write,
  extension: true,
  summary: "Start a bulk trash, delete, restore or purge",
  description:
    "Starts a job over a selection too big for one request: `trash` or `delete` (permanent) over live entries, listed by `paths` or as every child of `folder` except the names in `allExcept`; `restore` or `purge` over trash items, listed by `itemIds` or as every item matching `filter` (deleted at or before the request) except the ids in `allExcept`. Answers at once with the job (`total` is null until the job has counted the selection). The job works in batches of 100; `done` and `failed` are true after each, the first 100 failures are kept with their reasons, and the job records one event when it ends. 404 when `folder` is unknown; `validation_failed` when it is a file.",
  request: { params: workspaceParams, body: jsonBody(createBulkJobBodySchema) },
  responses: { 201: json(bulkJobSchema, "The job, queued") },
});

export const listBulkJobsRoute = apiRoute({
  operationId: "listBulkJobs",
  method: "get",
  path: "/workspaces/{workspaceId}/files/bulk",
  tags,
  scopes: read,
  extension: true,
  summary: "List bulk jobs",
  description: "Newest first; `active` keeps the queued and running ones.",
  request: { params: workspaceParams, query: listOperationsQuerySchema },
  responses: { 200: json(z.array(bulkJobSchema), "Bulk jobs") },
});

export const getBulkJobRoute = apiRoute({
  operationId: "getBulkJob",
  method: "get",
  path: "/workspaces/{workspaceId}/files/bulk/{jobId}",
  tags,
  scopes: read,
  extension: true,
  summary: "Get a bulk job",
  description: "The job's status, counters and first 100 failures. 404 for an unknown id.",
  request: { params: jobParams },
  responses: { 200: json(bulkJobSchema, "The job") },
});

export const cancelBulkJobRoute = apiRoute({
  operationId: "cancelBulkJob",
  method: "post",
  path: "/workspaces/{workspaceId}/files/bulk/{jobId}/cancel",
  tags,
  scopes: write,
  extension: true,
  summary: "Cancel a bulk job",
  description:
    "A queued or running job becomes `cancelled`: no batch starts after this, and what earlier batches did stays done (a cancelled trash job can still be undone). A cancelled job is returned as it is; a completed or failed one is `validation_failed` (code `not_cancellable`).",
  request: { params: jobParams },
  responses: { 200: json(bulkJobSchema, "The cancelled job") },
});

export const undoBulkJobRoute = apiRoute({
  operationId: "undoBulkJob",
  method: "post",
  path: "/workspaces/{workspaceId}/files/bulk/{jobId}/undo",
  tags,
  scopes: write,
  extension: true,
  summary: "Undo a bulk trash",
  description:
    "Starts a `restore` job of exactly the trash items the completed or cancelled trash job made (restored by the rules of POST restore; an item restored or purged since is a failure). Once per job: afterwards `undoable` is false. Any other job is `validation_failed` (code `not_undoable`).",
  request: { params: jobParams },
  responses: { 201: json(bulkJobSchema, "The restore job, queued") },
});
