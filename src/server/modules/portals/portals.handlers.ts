import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "@/server/http/types";
import type * as r from "./portals.routes";
import * as s from "./portals.service";

const origin = (c: Context<AppEnv>) => new URL(c.req.url).origin;
const caller = (c: Context<AppEnv>): s.Caller => {
  const { workspaceId, memberId, keyId } = c.get("auth");
  return { workspaceId, memberId, keyId, origin: origin(c) };
};

export const createPortal: RouteHandler<typeof r.createPortalRoute, AppEnv> = async (c) =>
  c.json(await s.createPortal(c.get("deps"), caller(c), c.req.valid("json")), 201);

export const listPortals: RouteHandler<typeof r.listPortalsRoute, AppEnv> = (c) =>
  c.json(s.listPortals(c.get("deps"), c.get("auth").workspaceId, origin(c)), 200);

export const getPortal: RouteHandler<typeof r.getPortalRoute, AppEnv> = (c) =>
  c.json(
    s.getPortal(c.get("deps"), c.get("auth").workspaceId, c.req.valid("param").portalId, origin(c)),
    200,
  );

export const updatePortal: RouteHandler<typeof r.updatePortalRoute, AppEnv> = async (c) =>
  c.json(
    await s.updatePortal(
      c.get("deps"),
      c.get("auth").workspaceId,
      c.req.valid("param").portalId,
      c.req.valid("json"),
      origin(c),
    ),
    200,
  );

export const revokePortal: RouteHandler<typeof r.revokePortalRoute, AppEnv> = (c) => {
  s.revokePortal(c.get("deps"), c.get("auth").workspaceId, c.req.valid("param").portalId);
  return c.body(null, 204);
};

export const reviewUpload: RouteHandler<typeof r.reviewUploadRoute, AppEnv> = (c) => {
  const { portalId, uploadId } = c.req.valid("param");
  return c.json(
    s.reviewUpload(c.get("deps"), c.get("auth"), portalId, uploadId, c.req.valid("json")),
    200,
  );
};

export const listUploads: RouteHandler<typeof r.listUploadsRoute, AppEnv> = (c) =>
  c.json(s.listUploads(c.get("deps"), c.get("auth").workspaceId, c.req.valid("query")), 200);
