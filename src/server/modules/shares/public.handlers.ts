import type { RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { SHARE_ACCESS_HEADER } from "@/contract/share-public";
import { visitorOf } from "@/server/http/caller";
import type { AppEnv } from "@/server/http/types";
import type * as r from "./public.routes";
import * as p from "./public.service";

const linkRequest = (
  c: Context<AppEnv>,
  token: string,
  access = c.req.header(SHARE_ACCESS_HEADER),
): p.LinkRequest => ({ token, ...visitorOf(c, access) });

export const getPublicShare: RouteHandler<typeof r.getPublicShareRoute, AppEnv> = async (c) =>
  c.json(
    await c.get("deps").sharePublicStore.openShare(linkRequest(c, c.req.valid("param").token)),
    200,
  );

export const unlockShare: RouteHandler<typeof r.unlockShareRoute, AppEnv> = async (c) =>
  c.json(
    await c
      .get("deps")
      .sharePublicStore.unlockShare(
        linkRequest(c, c.req.valid("param").token),
        c.req.valid("json").password,
      ),
    200,
  );

export const startDownload: RouteHandler<typeof r.startDownloadRoute, AppEnv> = async (c) =>
  c.json(
    await p.startDownload(
      c.get("deps"),
      linkRequest(c, c.req.valid("param").token),
      c.req.valid("json").paths,
    ),
    201,
  );

export const completeDownload: RouteHandler<typeof r.completeDownloadRoute, AppEnv> = (c) => {
  const { token, transferId } = c.req.valid("param");
  return c.json(
    p.completeDownload(c.get("deps"), linkRequest(c, token), transferId, c.req.valid("json")),
    200,
  );
};

export const listPublicComments: RouteHandler<typeof r.listPublicCommentsRoute, AppEnv> = async (
  c,
) =>
  c.json(
    await c
      .get("deps")
      .sharePublicStore.publicComments(
        linkRequest(c, c.req.valid("param").token),
        c.req.valid("query"),
      ),
    200,
  );

export const addPublicComment: RouteHandler<typeof r.addPublicCommentRoute, AppEnv> = async (c) =>
  c.json(
    await c
      .get("deps")
      .sharePublicStore.addRecipientComment(
        linkRequest(c, c.req.valid("param").token),
        c.req.valid("json"),
      ),
    201,
  );

export const shareThumbnail: RouteHandler<typeof r.shareThumbnailRoute, AppEnv> = async (c) => {
  const { path, access } = c.req.valid("query");
  const req = linkRequest(c, c.req.valid("param").token, access);
  const jpeg = await p.shareThumbnail(c.get("deps"), req, path);
  c.header("Cache-Control", "private, max-age=300");
  return c.body(new Uint8Array(jpeg), 200, { "Content-Type": "image/jpeg" }) as never;
};

export const sharePreview: RouteHandler<typeof r.sharePreviewRoute, AppEnv> = async (c) =>
  c.json(
    await p.sharePreview(
      c.get("deps"),
      linkRequest(c, c.req.valid("param").token),
      c.req.valid("query").path,
    ),
    200,
  );
