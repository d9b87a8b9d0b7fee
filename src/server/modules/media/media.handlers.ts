import type { RouteHandler } from "@hono/zod-openapi";
import { callerOf } from "@/server/http/caller";
import type { AppEnv } from "@/server/http/types";
import { notFound, validationFailed } from "@/server/lib/api-error";
import { toIso, toIsoOrNull } from "@/server/lib/clock";
import type * as r from "./media.routes";
import { renderProxies as queueProxies, sourceOf } from "./render.service";
import { recentRenders } from "./renditions.repository";
import { MEDIA_TYPES, renditionResponse } from "./serve";
import { proxyStatusOf, readyRendition, renditionOfToken } from "./status.service";

export const getProxyStatus: RouteHandler<typeof r.getProxyStatusRoute, AppEnv> = (c) => {
  const deps = c.get("deps");
  const caller = callerOf(c);
  const source = sourceOf(deps, caller.workspaceId, c.req.valid("query"));
  return c.json(proxyStatusOf(deps, source, caller.origin), 200);
};

export const renderProxies: RouteHandler<typeof r.renderProxiesRoute, AppEnv> = async (c) =>
  c.json(await queueProxies(c.get("deps"), callerOf(c), c.req.valid("json")), 200);

export const getProxy: RouteHandler<typeof r.getProxyRoute, AppEnv> = (c) => {
  const deps = c.get("deps");
  const { kind, page, ...at } = c.req.valid("query");
  const source = sourceOf(deps, c.get("auth").workspaceId, at);
  if (source.protected)
    throw validationFailed(
      "query.path",
      `"${source.path}" is protected content: it has no proxies`,
      "content_protected",
    );
  const entry = proxyStatusOf(deps, source, "").proxies.find(
    (p) => p.kind === kind && p.page === page,
  );
  if (!entry)
    throw validationFailed(
      "query.kind",
      `"${source.path}" has no ${kind} proxy${kind === "page" ? ` of page ${page}` : ""}`,
      "no_proxy",
    );
  const row = readyRendition(deps, source.sha256, kind, page);
  if (!row) throw notFound(`The ${kind} proxy`, { reason: "not_ready", status: entry.status });
  // The address names a file whose content may change: the browser keeps it only to ask again.
  return renditionResponse(c, row, {
    contentType: "application/octet-stream",
    cacheControl: "private, no-cache",
  }) as never;
};

export const listRenders: RouteHandler<typeof r.listRendersRoute, AppEnv> = (c) => {
  const { active, limit } = c.req.valid("query");
  const rows = recentRenders(c.get("deps").db, c.get("auth").workspaceId, active ?? false, limit);
  const items = rows.map((row) => ({
    id: row.id,
    sha256: row.sha256,
    path: row.path,
    kind: row.kind,
    page: row.page,
    status: row.status,
    progress: row.status === "rendering" ? (row.progress ?? 0) : null,
    error: row.error,
    sizeBytes: row.size_bytes,
    createdAt: toIso(row.created_at),
    startedAt: toIsoOrNull(row.started_at),
    finishedAt: toIsoOrNull(row.finished_at),
  }));
  return c.json({ items }, 200);
};

export const getMedia: RouteHandler<typeof r.getMediaRoute, AppEnv> = (c) => {
  const deps = c.get("deps");
  const row = renditionOfToken(deps, c.req.valid("param").token);
  const expiresAt = Number(c.req.valid("param").token.split(".")[1]);
  const maxAge = Math.max(0, Math.floor((expiresAt - deps.clock.now()) / 1000));
  // The address is keyed by content and signed: the browser may keep it until it expires.
  return renditionResponse(c, row, {
    contentType: MEDIA_TYPES[row.kind],
    cacheControl: `private, max-age=${maxAge}, immutable`,
  }) as never;
};
