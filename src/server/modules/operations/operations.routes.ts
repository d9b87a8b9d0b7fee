import { z } from "@hono/zod-openapi";
import {
  createOperationBodySchema,
  listOperationsQuerySchema,
  operationSchema,
} from "@/contract/operations";
import { apiRoute, json, jsonBody, pathId, workspaceParams } from "@/server/http/router";

const tags = ["Files"];
const read = ["files:read"] as const;
const write = ["files:write"] as const;
const jobParams = workspaceParams.extend({ jobId: pathId("jobId") });

export const createFileOperationRoute = apiRoute({
  operationId: "createFileOperation",
  method: "post",
  path: "/workspaces/{workspaceId}/files/operations",
  tags,
  scopes: write,
  summary: "Start a move or copy job",
  description:
    'Plans the job at once and runs it in the background (status `queued`, then `running`, then `completed`, `failed` or `cancelled`). An unknown path or destination: 404 with `details.path`. A destination that is a file, a folder moved or copied into itself (`into_itself`), a move into the folder an item is already in (`same_folder`): `validation_failed`. Over 500 GB: 403 `plan_limit` with `details` `{bytesTotal, limit}`. An item whose name is taken in the destination is refused (`validation_failed`, issue code `conflict`, `details.conflicts` lists each) unless `overwrite` (a file replaces the file, whose old content is kept as a version; a folder merges into the folder) or the extensions `onConflict` / `resolutions` choose `overwrite`, `skip` or `keepBoth` ("name (2).ext"). A selected frame of a numbered sequence (`shot.0001.exr`: three or more digits, same prefix, digit count and extension, same folder) takes the whole set unless `expandSequences` is false; `items` lists what the job moves. Copies reference the same stored content (no bytes are copied). A move copies, verifies file count and bytes, then deletes the originals, one item at a time: an item is never half-moved.',
  request: { params: workspaceParams, body: jsonBody(createOperationBodySchema) },
  responses: { 201: json(operationSchema, "The job, queued") },
});

export const listFileOperationsRoute = apiRoute({
  operationId: "listFileOperations",
  method: "get",
  path: "/workspaces/{workspaceId}/files/operations",
  tags,
  scopes: read,
  summary: "List move and copy jobs",
  description:
    "Newest first. `active` keeps only queued and running jobs. Each item also carries `files`, `status` (`pending`, `done`, `skipped`) and `destinationPath` (extension members).",
  request: { params: workspaceParams, query: listOperationsQuerySchema },
  responses: { 200: json(z.array(operationSchema), "Jobs, newest first") },
});

export const getFileOperationRoute = apiRoute({
  operationId: "getFileOperation",
  method: "get",
  path: "/workspaces/{workspaceId}/files/operations/{jobId}",
  tags,
  scopes: read,
  summary: "Read one move or copy job",
  description: "The job with its progress counters. 404 for an unknown id.",
  extension: true,
  request: { params: jobParams },
  responses: { 200: json(operationSchema, "The job") },
});

export const cancelFileOperationRoute = apiRoute({
  operationId: "cancelFileOperation",
  method: "post",
  path: "/workspaces/{workspaceId}/files/operations/{jobId}/cancel",
  tags,
  scopes: write,
  summary: "Cancel a move or copy job",
  description:
    "A queued or running job becomes `cancelled` at once. The item in flight finishes (each item is one transaction); items done stay done, the others stay where they were. A cancelled job answers unchanged; a completed or failed one is `validation_failed` (issue code `not_cancellable`). 404 for an unknown id.",
  request: { params: jobParams },
  responses: { 200: json(operationSchema, "The job") },
});
