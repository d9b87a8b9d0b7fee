import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "@/server/http/types";
import type * as r from "./operations.routes";
import { createOperation } from "./operations.service";

// Planning a job reads and checks the files tree, still SQLite's: the service, not the store.
export const createFileOperation: RouteHandler<typeof r.createFileOperationRoute, AppEnv> = (c) =>
  c.json(createOperation(c.get("deps"), c.get("auth").workspaceId, c.req.valid("json")), 201);

export const listFileOperations: RouteHandler<typeof r.listFileOperationsRoute, AppEnv> = async (
  c,
) => {
  const { operationsStore } = c.get("deps");
  return c.json(
    await operationsStore.listOperations(c.get("auth").workspaceId, c.req.valid("query")),
    200,
  );
};

export const getFileOperation: RouteHandler<typeof r.getFileOperationRoute, AppEnv> = async (c) => {
  const { operationsStore } = c.get("deps");
  const { jobId } = c.req.valid("param");
  return c.json(await operationsStore.getOperation(c.get("auth").workspaceId, jobId), 200);
};

export const cancelFileOperation: RouteHandler<typeof r.cancelFileOperationRoute, AppEnv> = async (
  c,
) => {
  const { operationsStore } = c.get("deps");
  const { jobId } = c.req.valid("param");
  return c.json(await operationsStore.cancelOperation(c.get("auth").workspaceId, jobId), 200);
};
