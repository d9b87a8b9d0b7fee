import type { RouteHandler } from "@hono/zod-openapi";
import { holdsEtag } from "@/server/http/etag";
import { textStream } from "@/server/http/text-stream";
import type { AppEnv } from "@/server/http/types";
import type * as r from "./files.routes";
import { thumbnailEtag, thumbnailJpeg } from "./thumbnail";
import { thumbnailSource } from "./thumbnail-source";

export const listFiles: RouteHandler<typeof r.listFilesRoute, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = await c.get("deps").filesStore.listPage(c.get("auth").workspaceId, query);
  const access = c.get("auth").scopes.includes("files:write") ? "write" : "read";
  // Assembled as text around the items the store rendered; the shape is fileListingSchema.
  const body = `{"path":${JSON.stringify(page.path)},"access":"${access}","total":${page.total},"sort":"${query.sort}","order":"${query.order}","items":${page.items}}`;
  return c.body(body, 200, { "Content-Type": "application/json" }) as never;
};

export const renameFile: RouteHandler<typeof r.renameFileRoute, AppEnv> = async (c) => {
  const { path, newName } = c.req.valid("json");
  await c.get("deps").filesStore.rename(c.get("auth").workspaceId, path, newName);
  return c.json({ ok: true }, 200);
};

export const deleteFiles: RouteHandler<typeof r.deleteFilesRoute, AppEnv> = async (c) => {
  const { paths, permanent } = c.req.valid("json");
  await c.get("deps").filesStore.remove(c.get("auth").workspaceId, paths, permanent);
  return c.json({ ok: true }, 200);
};

export const searchFiles: RouteHandler<typeof r.searchFilesRoute, AppEnv> = async (c) => {
  const query = c.req.valid("query");
  const items = await c.get("deps").filesStore.search(c.get("auth").workspaceId, query);
  return c.json({ items }, 200);
};

export const manifest: RouteHandler<typeof r.manifestRoute, AppEnv> = async (c) => {
  const { path } = c.req.valid("query");
  const chunks = await c.get("deps").filesStore.manifest(c.get("auth").workspaceId, path);
  // Streamed, so the typed c.json() does not apply; the body follows manifestSchema.
  return c.body(textStream(chunks), 200, { "Content-Type": "application/json" }) as never;
};

export const createFolder: RouteHandler<typeof r.createFolderRoute, AppEnv> = async (c) => {
  await c.get("deps").filesStore.createFolder(c.get("auth").workspaceId, c.req.valid("json").path);
  return c.json({ ok: true }, 201);
};

export const listTrash: RouteHandler<typeof r.listTrashRoute, AppEnv> = async (c) =>
  c.json(await c.get("deps").filesStore.listTrash(c.get("auth").workspaceId), 200);

export const restoreTrash: RouteHandler<typeof r.restoreTrashRoute, AppEnv> = async (c) => {
  const { itemId } = c.req.valid("param");
  const store = c.get("deps").filesStore;
  const restored = await store.restoreTrashItem(c.get("auth").workspaceId, itemId);
  return c.json({ ok: true, ...restored }, 200);
};

export const purgeTrash: RouteHandler<typeof r.purgeTrashRoute, AppEnv> = async (c) => {
  const { itemId } = c.req.valid("param");
  await c.get("deps").filesStore.purgeTrashItem(c.get("auth").workspaceId, itemId);
  return c.json({ ok: true }, 200);
};

export const listVersions: RouteHandler<typeof r.listVersionsRoute, AppEnv> = async (c) => {
  const { path } = c.req.valid("query");
  return c.json(await c.get("deps").filesStore.listVersions(c.get("auth").workspaceId, path), 200);
};

export const restoreVersion: RouteHandler<typeof r.restoreVersionRoute, AppEnv> = async (c) => {
  const { versionId } = c.req.valid("param");
  await c.get("deps").filesStore.restoreVersion(c.get("auth").workspaceId, versionId);
  return c.json({ ok: true }, 200);
};

/** A year: a thumbnail asked for by its content's hash (`v`) never changes. */
const IMMUTABLE = "private, max-age=31536000, immutable";
/** Asked for by path alone, the content may change: kept briefly, then asked again with the ETag. */
const BRIEFLY = "private, max-age=60";

export const preview: RouteHandler<typeof r.previewRoute, AppEnv> = async (c) => {
  const { files, config } = c.get("deps");
  const query = c.req.valid("query");
  const source = thumbnailSource(files, c.get("auth").workspaceId, query);
  const etag = thumbnailEtag(source.sha256, source.kind);
  c.header("ETag", etag);
  c.header("Cache-Control", query.v && source.sha256.startsWith(query.v) ? IMMUTABLE : BRIEFLY);
  if (holdsEtag(c, etag)) return c.body(null, 304) as never;
  const jpeg = await thumbnailJpeg(
    config.dataDir,
    files.blobs,
    source.sha256,
    query.path,
    source.kind,
  );
  return c.body(new Uint8Array(jpeg), 200, { "Content-Type": "image/jpeg" }) as never;
};
