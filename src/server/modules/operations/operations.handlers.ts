import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "@/server/http/types";
import type * as r from "./operations.routes";
import {
  cancelOperation,
  createOperation,
  getOperation,
  listOperations,
} from "./operations.service";

export const createFileOperation: RouteHandler<typeof r.createFileOperationRoute, AppEnv> = (c) =>
  c.json(createOperation(c.get("deps"), c.get("auth").workspaceId, c.req.valid("json")), 201);

export const listFileOperations: RouteHandler<typeof r.listFileOperationsRoute, AppEnv> = (c) =>
  c.json(listOperations(c.get("deps"), c.get("auth").workspaceId, c.req.valid("query")), 200);

export const getFileOperation: RouteHandler<typeof r.getFileOperationRoute, AppEnv> = (c) =>
  c.json(getOperation(c.get("deps"), c.get("auth").workspaceId, c.req.valid("param").jobId), 200);

export const cancelFileOperation: RouteHandler<typeof r.cancelFileOperationRoute, AppEnv> = (c) =>
  c.json(
    cancelOperation(c.get("deps"), c.get("auth").workspaceId, c.req.valid("param").jobId),
    200,
  );
