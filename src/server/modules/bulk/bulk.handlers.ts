import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "@/server/http/types";
import type * as r from "./bulk.routes";
import * as s from "./bulk.service";

export const createBulkJob: RouteHandler<typeof r.createBulkJobRoute, AppEnv> = (c) =>
  c.json(s.createBulkJob(c.get("deps"), c.get("auth").workspaceId, c.req.valid("json")), 201);

export const listBulkJobs: RouteHandler<typeof r.listBulkJobsRoute, AppEnv> = (c) => {
  const { active = false, limit } = c.req.valid("query");
  return c.json(s.listBulkJobs(c.get("deps"), c.get("auth").workspaceId, active, limit), 200);
};

export const getBulkJob: RouteHandler<typeof r.getBulkJobRoute, AppEnv> = (c) =>
  c.json(s.getBulkJob(c.get("deps"), c.get("auth").workspaceId, c.req.valid("param").jobId), 200);

export const cancelBulkJob: RouteHandler<typeof r.cancelBulkJobRoute, AppEnv> = (c) =>
  c.json(
    s.cancelBulkJob(c.get("deps"), c.get("auth").workspaceId, c.req.valid("param").jobId),
    200,
  );

export const undoBulkJob: RouteHandler<typeof r.undoBulkJobRoute, AppEnv> = (c) =>
  c.json(s.undoBulkJob(c.get("deps"), c.get("auth").workspaceId, c.req.valid("param").jobId), 201);
