import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "@/server/http/types";
import type * as r from "./bulk.routes";

export const createBulkJob: RouteHandler<typeof r.createBulkJobRoute, AppEnv> = async (c) => {
  const { bulkStore } = c.get("deps");
  return c.json(await bulkStore.createBulkJob(c.get("auth").workspaceId, c.req.valid("json")), 201);
};

export const listBulkJobs: RouteHandler<typeof r.listBulkJobsRoute, AppEnv> = async (c) => {
  const { active = false, limit } = c.req.valid("query");
  const { bulkStore } = c.get("deps");
  return c.json(await bulkStore.listBulkJobs(c.get("auth").workspaceId, active, limit), 200);
};

export const getBulkJob: RouteHandler<typeof r.getBulkJobRoute, AppEnv> = async (c) => {
  const { bulkStore } = c.get("deps");
  const { jobId } = c.req.valid("param");
  return c.json(await bulkStore.getBulkJob(c.get("auth").workspaceId, jobId), 200);
};

export const cancelBulkJob: RouteHandler<typeof r.cancelBulkJobRoute, AppEnv> = async (c) => {
  const { bulkStore } = c.get("deps");
  const { jobId } = c.req.valid("param");
  return c.json(await bulkStore.cancelBulkJob(c.get("auth").workspaceId, jobId), 200);
};

export const undoBulkJob: RouteHandler<typeof r.undoBulkJobRoute, AppEnv> = async (c) => {
  const { bulkStore } = c.get("deps");
  const { jobId } = c.req.valid("param");
  return c.json(await bulkStore.undoBulkJob(c.get("auth").workspaceId, jobId), 201);
};
