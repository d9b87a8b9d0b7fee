import { describe, expect, it } from "vitest";
import type { CreateShareBody } from "@/contract/shares";
import { renderProxies } from "@/server/modules/media/render.service";
import { expectBody, expectError, okBody } from "@/server/testing/expect-body";
import { writeFile } from "@/server/testing/files-client";
import { makePdf } from "@/server/testing/media";
import { type TestApp, testAppEach } from "@/server/testing/test-app";
import { publicSharesRouter } from "./public.index";
import { sharesRouter } from "./shares.index";

/* Time-coded notes on a share: a comment points at a time or a PDF page of one of its files. */

let t: TestApp;
testAppEach(async (app) => {
  t = app;
  await writeFile(t, "Cut/reel1.mov", "reel one");
  await writeFile(t, "Cut/script.pdf", "not really a pdf");
  await writeFile(t, "Elsewhere/other.mov", "other");
});

const api = () => t.client(sharesRouter).workspaces[":workspaceId"].shares;
const pub = () => t.client(publicSharesRouter, { key: null }).public.shares[":token"];
const share = async (over: Partial<CreateShareBody> = {}) =>
  expectBody(await api().$post({ param: t.ws, json: { paths: ["Cut"], ...over } }), 201);
const reel = (timeMs: number | null, page: number | null = null) => ({
  path: "Cut/reel1.mov",
  timeMs,
  page,
});

describe("anchored comments", () => {
  it("keeps a comment's time or page and lists it; a comment without one has null", async () => {
    const s = await share();
    const p = { ...t.ws, shareId: s.id };
    const comments = api()[":shareId"].comments;
    const timed = await expectBody(
      await comments.$post({ param: p, json: { body: "Cut here", anchor: reel(62_200) } }),
      201,
    );
    expect(timed.anchor).toEqual(reel(62_200));
    const paged = await expectBody(
      await comments.$post({
        param: p,
        json: { body: "Typo", anchor: { path: "Cut/script.pdf", timeMs: null, page: 1 } },
      }),
      201,
    );
    const plain = await expectBody(await comments.$post({ param: p, json: { body: "Nice" } }), 201);
    expect(plain.anchor).toBeNull();
    const page = await okBody(await comments.$get({ param: p, query: {} }));
    expect(page.items.map((c) => c.anchor)).toEqual([reel(62_200), paged.anchor, null]);
    expect(paged.anchor).toEqual({ path: "Cut/script.pdf", timeMs: null, page: 1 });
  });

  it("refuses an anchor outside the share, with both or neither of time and page, or of the wrong kind", async () => {
    const s = await share();
    const p = { ...t.ws, shareId: s.id };
    const refused = async (anchor: { path: string; timeMs: number | null; page: number | null }) =>
      (
        await expectError(
          await api()[":shareId"].comments.$post({ param: p, json: { body: "x", anchor } }),
          400,
        )
      ).issues[0]!.code;
    expect(await refused({ path: "Elsewhere/other.mov", timeMs: 0, page: null })).toBe(
      "not_in_share",
    );
    expect(await refused(reel(1000, 2))).toBe("time_or_page");
    expect(await refused(reel(null, null))).toBe("time_or_page");
    expect(await refused(reel(null, 0))).toBe("wrong_kind");
    expect(await refused({ path: "Cut/script.pdf", timeMs: 10, page: null })).toBe("wrong_kind");
    const left = await okBody(await api()[":shareId"].comments.$get({ param: p, query: {} }));
    expect(left.items).toEqual([]);
  });

  it("refuses a page past a PDF's last once the media probe counted its pages", async () => {
    await writeFile(t, "Cut/two.pdf", await makePdf(2));
    const caller = { workspaceId: t.workspaceId, keyId: null, memberId: null, origin: "" };
    await renderProxies(t.deps, caller, { paths: ["Cut/two.pdf"] });
    const s = await share();
    const p = { ...t.ws, shareId: s.id };
    const at = (page: number) => ({
      param: p,
      json: { body: "x", anchor: { path: "Cut/two.pdf", timeMs: null, page } },
    });
    await expectBody(await api()[":shareId"].comments.$post(at(1)), 201);
    const past = await expectError(await api()[":shareId"].comments.$post(at(2)), 400);
    expect(past.issues[0]!.code).toBe("past_end");
  });

  it("a recipient's comment on the share page carries its anchor too", async () => {
    const s = await share({ openLink: true });
    const token = s.url!.slice(s.url!.lastIndexOf("/") + 1);
    const made = await expectBody(
      await pub().comments.$post({
        param: { token },
        json: { body: "Sound drops here", anchor: reel(1500) },
      }),
      201,
    );
    expect(made.anchor).toEqual(reel(1500));
    const page = await okBody(await pub().comments.$get({ param: { token }, query: {} }));
    expect(page.items[0]!.anchor).toEqual(reel(1500));
    const wrong = await expectError(
      await pub().comments.$post({
        param: { token },
        json: { body: "x", anchor: { path: "Elsewhere/other.mov", timeMs: 0, page: null } },
      }),
      400,
    );
    expect(wrong.issues[0]!.code).toBe("not_in_share");
  });
});
