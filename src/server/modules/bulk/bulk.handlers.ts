import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "@/server/http/types";
import type * as r from "./bulk.routes";
import { BulkService } from "./bulk.service";

// The service holds no state of its own beyond its dependencies, so each request makes one.
const bulk = (c: { get(key: "deps"): AppEnv["Variables"]["deps"] }) =>
  new BulkService(c.get("deps"));

export const createBulkJob: RouteHandler<typeof r.createBulkJobRoute, AppEnv> = (c) =>
  c.json(bulk(c).create(c.get("auth").workspaceId, c.req.valid("json")), 201);

export const listBulkJobs: RouteHandler<typeof r.listBulkJobsRoute, AppEnv> = (c) => {
  const { active = false, limit } = c.req.valid("query");
  return c.json(bulk(c).list(c.get("auth").workspaceId, active, limit), 200);
};

export const getBulkJob: RouteHandler<typeof r.getBulkJobRoute, AppEnv> = (c) =>
  c.json(bulk(c).get(c.get("auth").workspaceId, c.req.valid("param").jobId), 200);

export const cancelBulkJob: RouteHandler<typeof r.cancelBulkJobRoute, AppEnv> = (c) =>
  c.json(bulk(c).cancel(c.get("auth").workspaceId, c.req.valid("param").jobId), 200);

export const undoBulkJob: RouteHandler<typeof r.undoBulkJobRoute, AppEnv> = (c) =>
  c.json(bulk(c).undo(c.get("auth").workspaceId, c.req.valid("param").jobId), 201);
