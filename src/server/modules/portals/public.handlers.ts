import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { PORTAL_ACCESS_HEADER, PORTAL_STATUS_HEADER } from "@/contract/portal-public";
import { visitorOf } from "@/server/http/caller";
import type { AppEnv } from "@/server/http/types";
import type * as r from "./public.routes";
import type * as p from "./public.service";
import * as landing from "./public-landing.service";
import * as start from "./public-start.service";

const portalRequest = (c: Context<AppEnv>, slug: string): p.PortalRequest => ({
  slug,
  ...visitorOf(c, c.req.header(PORTAL_ACCESS_HEADER)),
});

/** An upload's own requests carry its transfer's token, as the data node's do. */
const bearer = (c: Context<AppEnv>) => c.req.header("Authorization")?.replace(/^Bearer /, "");

export const getPublicPortal: RouteHandler<typeof r.getPublicPortalRoute, AppEnv> = async (c) =>
  c.json(
    await c.get("deps").portalPublicStore.openPortal(portalRequest(c, c.req.valid("param").slug)),
    200,
  );

export const unlockPortal: RouteHandler<typeof r.unlockPortalRoute, AppEnv> = async (c) =>
  c.json(
    await c
      .get("deps")
      .portalPublicStore.unlockPortal(
        portalRequest(c, c.req.valid("param").slug),
        c.req.valid("json").password,
      ),
    200,
  );

export const startPortalUpload: RouteHandler<typeof r.startPortalUploadRoute, AppEnv> = (c) =>
  c.json(
    start.startUpload(
      c.get("deps"),
      portalRequest(c, c.req.valid("param").slug),
      c.req.valid("json"),
    ),
    201,
  );

export const completePortalUpload: RouteHandler<typeof r.completePortalUploadRoute, AppEnv> = (
  c,
) => {
  const { slug, uploadId } = c.req.valid("param");
  return c.json(
    landing.completeUpload(c.get("deps"), portalRequest(c, slug), uploadId, bearer(c)),
    200,
  );
};

export const cancelPortalUpload: RouteHandler<typeof r.cancelPortalUploadRoute, AppEnv> = (c) => {
  const { slug, uploadId } = c.req.valid("param");
  landing.cancelUpload(c.get("deps"), portalRequest(c, slug), uploadId, bearer(c));
  return c.body(null, 204);
};

export const getPortalUploadStatus: RouteHandler<
  typeof r.getPortalUploadStatusRoute,
  AppEnv
> = async (c) => {
  const { slug, uploadId } = c.req.valid("param");
  const store = c.get("deps").portalPublicStore;
  return c.json(await store.senderStatus(slug, uploadId, c.req.header(PORTAL_STATUS_HEADER)), 200);
};
