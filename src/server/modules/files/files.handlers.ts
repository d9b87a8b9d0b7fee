import type { RouteHandler } from "@hono/zod-openapi";
import { thumbnailMimeTypes } from "@/contract/rules";
import { textStream } from "@/server/http/text-stream";
import type { AppEnv } from "@/server/http/types";
import { validationFailed } from "@/server/lib/api-error";
import { protectionOf } from "./files.repository";
import type * as r from "./files.routes";
import { thumbnailJpeg } from "./thumbnail";

export const listFiles: RouteHandler<typeof r.listFilesRoute, AppEnv> = (c) => {
  const { files } = c.get("deps");
  const { workspaceId } = c.get("auth");
  const query = c.req.valid("query");
  const folder = files.folder(workspaceId, query.path, "query.path");
  const { items, total } = files.list(folder, query);
  const access = c.get("auth").scopes.includes("files:write") ? "write" : "read";
  // Assembled as text around the items SQLite rendered; the shape is fileListingSchema.
  const body = `{"path":${JSON.stringify(folder.path)},"access":"${access}","total":${total},"sort":"${query.sort}","order":"${query.order}","items":${items}}`;
  return c.body(body, 200, { "Content-Type": "application/json" }) as never;
};

export const renameFile: RouteHandler<typeof r.renameFileRoute, AppEnv> = (c) => {
  const { path, newName } = c.req.valid("json");
  c.get("deps").files.rename(c.get("auth").workspaceId, path, newName);
  return c.json({ ok: true }, 200);
};

export const deleteFiles: RouteHandler<typeof r.deleteFilesRoute, AppEnv> = (c) => {
  const { paths, permanent } = c.req.valid("json");
  c.get("deps").files.remove(c.get("auth").workspaceId, paths, permanent);
  return c.json({ ok: true }, 200);
};

export const searchFiles: RouteHandler<typeof r.searchFilesRoute, AppEnv> = (c) => {
  const { files } = c.get("deps");
  const { q, path, limit } = c.req.valid("query");
  const scope = files.folder(c.get("auth").workspaceId, path, "query.path");
  return c.json({ items: files.search(scope, q, limit) }, 200);
};

export const manifest: RouteHandler<typeof r.manifestRoute, AppEnv> = (c) => {
  const { files } = c.get("deps");
  const folder = files.folder(c.get("auth").workspaceId, c.req.valid("query").path, "query.path");
  const chunks = files.manifest(folder);
  // Streamed, so the typed c.json() does not apply; the body follows manifestSchema.
  return c.body(textStream(chunks), 200, { "Content-Type": "application/json" }) as never;
};

export const createFolder: RouteHandler<typeof r.createFolderRoute, AppEnv> = (c) => {
  c.get("deps").files.createFolder(c.get("auth").workspaceId, c.req.valid("json").path);
  return c.json({ ok: true }, 201);
};

export const listTrash: RouteHandler<typeof r.listTrashRoute, AppEnv> = (c) =>
  c.json(c.get("deps").files.trash(c.get("auth").workspaceId), 200);

export const restoreTrash: RouteHandler<typeof r.restoreTrashRoute, AppEnv> = (c) => {
  const { itemId } = c.req.valid("param");
  const restored = c.get("deps").files.restoreTrash(c.get("auth").workspaceId, itemId);
  return c.json({ ok: true, ...restored }, 200);
};

export const purgeTrash: RouteHandler<typeof r.purgeTrashRoute, AppEnv> = (c) => {
  c.get("deps").files.purgeTrash(c.get("auth").workspaceId, c.req.valid("param").itemId);
  return c.json({ ok: true }, 200);
};

export const listVersions: RouteHandler<typeof r.listVersionsRoute, AppEnv> = (c) => {
  const { files } = c.get("deps");
  const { path } = c.req.valid("query");
  const entry = files.get(c.get("auth").workspaceId, path);
  if (!entry.is_file)
    throw validationFailed(
      "query.path",
      `"${path}" is a folder; folders have no versions`,
      "not_a_file",
    );
  return c.json(files.versions(entry), 200);
};

export const restoreVersion: RouteHandler<typeof r.restoreVersionRoute, AppEnv> = (c) => {
  c.get("deps").files.restoreVersion(c.get("auth").workspaceId, c.req.valid("param").versionId);
  return c.json({ ok: true }, 200);
};

export const preview: RouteHandler<typeof r.previewRoute, AppEnv> = async (c) => {
  const { files } = c.get("deps");
  const { path } = c.req.valid("query");
  const entry = files.get(c.get("auth").workspaceId, path);
  if (!entry.is_file || !entry.mime || !thumbnailMimeTypes.includes(entry.mime)) {
    throw validationFailed(
      "query.path",
      `"${path}" has no thumbnail: only images do`,
      "no_preview",
    );
  }
  // Encrypted at rest (content protection): only an engine with the password reads it.
  if (protectionOf(files.db, entry.id))
    throw validationFailed("query.path", `"${path}" is protected content`, "no_preview");
  const sha256 = entry.sha256!;
  const blob = { sha256, path: files.blobs.pathOf(sha256) };
  const jpeg = await thumbnailJpeg(c.get("deps").config.dataDir, blob, path);
  c.header("Cache-Control", "private, max-age=300");
  return c.body(new Uint8Array(jpeg), 200, { "Content-Type": "image/jpeg" }) as never;
};
