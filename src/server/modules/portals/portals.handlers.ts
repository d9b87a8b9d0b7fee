import type { RouteHandler } from "@hono/zod-openapi";
import { callerOf, requestOrigin as origin } from "@/server/http/caller";
import type { AppEnv } from "@/server/http/types";
import type * as r from "./portals.routes";
import * as s from "./portals.service";

export const createPortal: RouteHandler<typeof r.createPortalRoute, AppEnv> = async (c) =>
  c.json(await c.get("deps").portalsStore.createPortal(callerOf(c), c.req.valid("json")), 201);

export const listPortals: RouteHandler<typeof r.listPortalsRoute, AppEnv> = async (c) =>
  c.json(await c.get("deps").portalsStore.listPortals(c.get("auth").workspaceId, origin(c)), 200);

export const getPortal: RouteHandler<typeof r.getPortalRoute, AppEnv> = async (c) =>
  c.json(
    await c
      .get("deps")
      .portalsStore.getPortal(c.get("auth").workspaceId, c.req.valid("param").portalId, origin(c)),
    200,
  );

export const updatePortal: RouteHandler<typeof r.updatePortalRoute, AppEnv> = async (c) =>
  c.json(
    await c
      .get("deps")
      .portalsStore.updatePortal(
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

export const reviewUpload: RouteHandler<typeof r.reviewUploadRoute, AppEnv> = async (c) => {
  const { portalId, uploadId } = c.req.valid("param");
  const store = c.get("deps").portalsStore;
  return c.json(
    await store.reviewUpload(callerOf(c), portalId, uploadId, c.req.valid("json")),
    200,
  );
};

export const listUploads: RouteHandler<typeof r.listUploadsRoute, AppEnv> = async (c) =>
  c.json(
    await c.get("deps").portalsStore.listUploads(c.get("auth").workspaceId, c.req.valid("query")),
    200,
  );

export const bulkReview: RouteHandler<typeof r.bulkReviewRoute, AppEnv> = async (c) =>
  c.json(await c.get("deps").portalsStore.reviewUploads(callerOf(c), c.req.valid("json")), 200);

export const listUploadNotes: RouteHandler<typeof r.listUploadNotesRoute, AppEnv> = async (c) =>
  c.json(
    await c
      .get("deps")
      .portalsStore.listUploadNotes(c.get("auth").workspaceId, c.req.valid("param").uploadId),
    200,
  );

export const addUploadNote: RouteHandler<typeof r.addUploadNoteRoute, AppEnv> = async (c) =>
  c.json(
    await c
      .get("deps")
      .portalsStore.addUploadNote(callerOf(c), c.req.valid("param").uploadId, c.req.valid("json")),
    201,
  );

export const deleteUploadNote: RouteHandler<typeof r.deleteUploadNoteRoute, AppEnv> = async (c) => {
  const { uploadId, noteId } = c.req.valid("param");
  await c.get("deps").portalsStore.removeUploadNote(callerOf(c), uploadId, noteId);
  return c.body(null, 204);
};
