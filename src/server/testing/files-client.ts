import type { ListFilesQuery } from "@/contract/files";
import { filesRouter } from "@/server/modules/files/files.index";
import { okBody } from "./expect-body";
import type { TestApp } from "./test-app";

/** The files routes through the typed client, as the workspace admin or with `key`. */
export const filesClient = (t: TestApp, key?: string) =>
  t.client(filesRouter, { key }).workspaces[":workspaceId"].files;

/** Content written as the service's callers write it (the API carries no bytes). */
export const writeFile = (t: TestApp, path: string, content: string | Buffer = path) =>
  t.deps.files.writeFile(t.workspaceId, path, content);

export const listFolder = async (t: TestApp, path = "", query: Omit<ListFilesQuery, "path"> = {}) =>
  okBody(await filesClient(t).$get({ param: t.ws, query: { path, ...query } }));

export const folderNames = async (
  t: TestApp,
  path = "",
  query: Omit<ListFilesQuery, "path"> = {},
) => (await listFolder(t, path, query)).items.map((i) => i.name);

export const listTrash = async (t: TestApp) =>
  okBody(await filesClient(t).trash.$get({ param: t.ws }));
