import { beforeAll, describe, expect, it } from "vitest";
import type { ProxyStatus } from "@/contract/media";
import { SHARE_ACCESS_HEADER } from "@/contract/share-public";
import type { CreateShareBody } from "@/contract/shares";
import { expectBody, expectError, okBody } from "@/server/testing/expect-body";
import { makeClip, makePdf } from "@/server/testing/media";
import { type TestApp, testAppEach } from "@/server/testing/test-app";
import { publicSharesRouter } from "./public.index";
import { sharesRouter } from "./shares.index";

/* The recipient previews before downloading: a share file's proxies, with signed addresses. */

let clip: Buffer;
let pdf: Buffer;
beforeAll(async () => {
  [clip, pdf] = await Promise.all([makeClip({ seconds: 1 }), makePdf(2)]);
});

let t: TestApp;
testAppEach(async (app) => {
  t = app;
  await t.deps.files.writeFile(t.workspaceId, "Cut/clip.mp4", clip);
  await t.deps.files.writeFile(t.workspaceId, "Cut/script.pdf", pdf);
  await t.deps.files.writeFile(t.workspaceId, "Elsewhere/other.mp4", clip);
});

const shares = () => t.client(sharesRouter).workspaces[":workspaceId"].shares;
const pub = () => t.client(publicSharesRouter, { key: null }).public.shares[":token"];
async function share(over: Partial<CreateShareBody> = {}) {
  const s = await expectBody(
    await shares().$post({ param: t.ws, json: { paths: ["Cut"], openLink: true, ...over } }),
    201,
  );
  return { ...s, token: s.url!.slice(s.url!.lastIndexOf("/") + 1) };
}
const preview = (token: string, path: string, access?: string) =>
  pub().proxies.$get(
    { param: { token }, query: { path } },
    { headers: access ? { [SHARE_ACCESS_HEADER]: access } : {} },
  );
const entry = (s: ProxyStatus, kind: string, page = 0) =>
  s.proxies.find((p) => p.kind === kind && p.page === page)!;

describe("the recipient's preview", () => {
  it("queues what a file lacks, then answers its proxies with signed addresses that play without a credential; nothing counts as a download", async () => {
    const s = await share();
    const first = await okBody(await preview(s.token, "Cut/clip.mp4"));
    expect(first.media).toBe("video");
    expect(entry(first, "proxy720").status).toBe("queued");
    await t.deps.jobs.runDue();
    const ready = await okBody(await preview(s.token, "Cut/clip.mp4"));
    const proxy = entry(ready, "proxy720");
    expect(proxy.status).toBe("ready");
    expect(entry(ready, "waveform").url).toMatch(/\/v1\/public\/media\//);
    const url = new URL(proxy.url!);
    const bytes = await t.app.request(url.pathname, { headers: { Range: "bytes=0-99" } });
    expect(bytes.status).toBe(206);
    expect((await bytes.arrayBuffer()).byteLength).toBe(100);

    const paper = await okBody(await preview(s.token, "Cut/script.pdf"));
    expect(paper.pageCount).toBe(2);
    expect(paper.proxies.map((p) => [p.kind, p.page, p.status])).toEqual([
      ["page", 0, "queued"],
      ["page", 1, "queued"],
    ]);
    const after = await okBody(
      await shares()[":shareId"].$get({ param: { ...t.ws, shareId: s.id } }),
    );
    expect(after.downloadCount).toBe(0);
  });

  it("holds to the file list's rules: a file of the share, a password unlocked, an open share", async () => {
    const s = await share();
    const outside = await expectError(await preview(s.token, "Elsewhere/other.mp4"), 400);
    expect(outside.issues[0]!.code).toBe("not_in_share");
    await expectError(await preview("x".repeat(22), "Cut/clip.mp4"), 404);

    const locked = await share({ password: "correct horse" });
    const refused = await expectError(await preview(locked.token, "Cut/clip.mp4"), 403);
    expect(refused.details?.reason).toBe("password_required");
    const { accessToken } = await okBody(
      await pub().unlock.$post({
        param: { token: locked.token },
        json: { password: "correct horse" },
      }),
    );
    await okBody(await preview(locked.token, "Cut/clip.mp4", accessToken));

    await okBody(await shares()[":shareId"].$delete({ param: { ...t.ws, shareId: s.id } }));
    const revoked = await expectError(await preview(s.token, "Cut/clip.mp4"), 403);
    expect(revoked.details?.reason).toBe("share_revoked");
  });
});
