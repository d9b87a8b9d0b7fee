import type { ErrorEnvelope } from "@/contract/common";
import type { ListFilesQuery } from "@/contract/files";
import { filesRouter } from "@/server/modules/files/files.routes";
import type { TestApp } from "./test-app";

/** The files routes through the typed client, as the workspace admin or with `key`. */
export const filesClient = (t: TestApp, key?: string) =>
  t.client(filesRouter, { key }).workspaces[":workspaceId"].files;

interface AnyResponse {
  ok: boolean;
  status: number;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

/** The typed client's answer of a route's success status (2xx), out of all it may answer. */
type Success<R> = R extends { status: 200 | 201 } ? R : never;
type SuccessBody<R extends AnyResponse> = Awaited<ReturnType<Success<R>["json"]>>;

/** The body of a response that must have succeeded; any other answer fails with its text. */
export async function okBody<R extends AnyResponse>(res: R): Promise<SuccessBody<R>> {
  if (!res.ok) throw new Error(`expected success, got ${res.status}: ${await res.text()}`);
  return (await res.json()) as SuccessBody<R>;
}

/** A refused response's status and error envelope. */
export async function refusal(res: AnyResponse) {
  const { error } = (await res.json()) as ErrorEnvelope;
  return {
    status: res.status,
    code: error.code,
    message: error.message,
    // biome-ignore lint/suspicious/noExplicitAny: each code has its own details
    details: error.details as any,
  };
}

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
