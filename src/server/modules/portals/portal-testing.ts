import { expect } from "vitest";
import { PORTAL_ACCESS_HEADER, type StartPortalUploadBody } from "@/contract/portal-public";
import type { CreatePortalBody } from "@/contract/portals";
import type { NodeTest } from "@/server/node/node-testing";
import { expectBody } from "@/server/testing/expect-body";
import { portalsRouter } from "./portals.index";
import { publicPortalsRouter } from "./public.index";

/**
 * What portal tests do through the real app and node: create a portal, start an upload as its
 * page does, send its files with tus and report it complete. `node` is read at each call, so a
 * test file may start a new node before each test.
 */
export function portalHelpers(node: () => NodeTest) {
  const admin = () => node().t.client(portalsRouter).workspaces[":workspaceId"];
  const pub = () => node().t.client(publicPortalsRouter, { key: null }).public.portals[":slug"];
  const access = (token?: string) => ({
    headers: token ? { [PORTAL_ACCESS_HEADER]: token } : ({} as Record<string, string>),
  });
  const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

  async function portal(over: Partial<CreatePortalBody> = {}) {
    return expectBody(
      await admin().portals.$post({
        param: node().t.ws,
        json: { title: "Dailies", targetPath: "Incoming", ...over },
      }),
      201,
    );
  }
  const start = (slug: string, json: StartPortalUploadBody, token?: string) =>
    pub().uploads.$post({ param: { slug }, json }, access(token));

  const complete = (slug: string, uploadId: string, token: string) =>
    pub().uploads[":uploadId"].complete.$post({ param: { slug, uploadId } }, bearer(token));

  /** Starts an upload, sends each file to the node, and reports it complete, as the page does. */
  async function send(
    slug: string,
    files: Record<string, Buffer | string>,
    body: Partial<StartPortalUploadBody> = {},
    token?: string,
  ) {
    const list = Object.entries(files).map(([p, b]) => ({ path: p, bytes: Buffer.from(b) }));
    const started = await expectBody(
      await start(
        slug,
        { ...body, files: list.map((f) => ({ path: f.path, size: f.bytes.length })) },
        token,
      ),
      201,
    );
    const root = started.transferSpec.destinationRoot;
    for (const f of list) {
      const res = await node().upload(started.transferSpec.token, `${root}/${f.path}`, f.bytes);
      expect(res.status, await res.text()).toBe(204);
    }
    const done = await complete(slug, started.uploadId, started.transferSpec.token);
    return { started, done };
  }

  return { admin, pub, access, bearer, portal, start, complete, send };
}
