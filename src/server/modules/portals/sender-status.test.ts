import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PORTAL_STATUS_HEADER } from "@/contract/portal-public";
import type { ReviewBody } from "@/contract/portal-review";
import { ManualClock } from "@/server/lib/clock";
import { type NodeTest, startNodeTest } from "@/server/node/node-testing";
import { expectBody, expectError } from "@/server/testing/expect-body";
import { sharesRouter } from "../shares/shares.index";
import { portalHelpers } from "./portal-testing";

let n: NodeTest;

beforeEach(async () => {
  // The node's tus layer measures upload expiry by the wall clock: start from now.
  n = await startNodeTest({ clock: new ManualClock(Math.floor(Date.now() / 60_000) * 60_000) });
});
afterEach(() => n.close());

const { admin, pub, portal, send, complete } = portalHelpers(() => n);
const review = (portalId: string, uploadId: string, json: ReviewBody) =>
  admin().portals[":portalId"].uploads[":uploadId"].review.$post({
    param: { ...n.t.ws, portalId, uploadId },
    json,
  });
const statusOf = (slug: string, uploadId: string, token: string) =>
  pub().uploads[":uploadId"].status.$get(
    { param: { slug, uploadId } },
    { headers: { [PORTAL_STATUS_HEADER]: token } },
  );
const outboxOf = async (portalId: string) =>
  (
    await expectBody(
      await n.t
        .client(sharesRouter)
        .workspaces[":workspaceId"].outbox.$get({ param: n.t.ws, query: { portalId } }),
      200,
    )
  ).items;

/** The status page's path and token from a confirmation's `statusUrl`. */
function statusLink(url: string) {
  const u = new URL(url);
  return { path: u.pathname, token: decodeURIComponent(u.hash.slice(1)) };
}

describe("the sender learns the decision", () => {
  it("keeps the note to the sender apart, mails a rejection, and shows it on the status page", async () => {
    const p = await portal();
    expect(p.notifySender).toEqual({ approved: false, rejected: true });
    const { started, done } = await send(
      p.slug,
      { "a.txt": "one" },
      { senderEmail: "ana@example.com", senderName: "Ana" },
    );
    const confirmation = await expectBody(done, 200);
    const link = statusLink(confirmation.statusUrl);
    expect(link.path).toBe(`/p/${p.slug}/status/${started.uploadId}`);
    const received = await expectBody(await statusOf(p.slug, started.uploadId, link.token), 200);
    expect(received).toMatchObject({
      status: "received",
      noteToSender: null,
      decidedAt: null,
      reference: confirmation.reference,
      fileCount: 1,
    });

    const rejected = await expectBody(
      await review(p.id, started.uploadId, {
        decision: "rejected",
        note: "Ana sent the wrong take again",
        noteToSender: "Please send the MOV, not the MP4.",
      }),
      200,
    );
    expect(rejected).toMatchObject({
      reviewNote: "Ana sent the wrong take again",
      noteToSender: "Please send the MOV, not the MP4.",
    });
    const page = await expectBody(await statusOf(p.slug, started.uploadId, link.token), 200);
    expect(page).toMatchObject({
      status: "rejected",
      noteToSender: "Please send the MOV, not the MP4.",
    });
    expect(JSON.stringify(page)).not.toContain("wrong take");

    const mails = (await outboxOf(p.id)).filter((m) => m.subject.includes("not accepted"));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe("ana@example.com");
    expect(mails[0]!.text).toContain("Please send the MOV, not the MP4.");
    expect(mails[0]!.text).toContain(confirmation.statusUrl);
    expect(mails[0]!.text).not.toContain("wrong take");

    // Held, then approved: in review, then approved; an approval mails only when asked.
    await expectBody(await review(p.id, started.uploadId, { decision: "pending" }), 200);
    expect(
      (await expectBody(await statusOf(p.slug, started.uploadId, link.token), 200)).status,
    ).toBe("in_review");
    // The rejection's mail was still waiting: undoing the decision withdrew it.
    expect((await outboxOf(p.id)).filter((m) => m.subject.includes("not accepted"))).toEqual([]);
    await expectBody(await review(p.id, started.uploadId, { decision: "approved" }), 200);
    expect((await outboxOf(p.id)).filter((m) => m.subject.includes("approved"))).toEqual([]);
    await expectBody(
      await admin().portals[":portalId"].$patch({
        param: { ...n.t.ws, portalId: p.id },
        json: { notifySender: { approved: true, rejected: true } },
      }),
      200,
    );
    await expectBody(await review(p.id, started.uploadId, { decision: "pending" }), 200);
    await expectBody(await review(p.id, started.uploadId, { decision: "approved" }), 200);
    expect((await outboxOf(p.id)).filter((m) => m.subject.includes("approved"))).toHaveLength(1);
  });

  it("opens only with the upload's own token", async () => {
    const p = await portal();
    const one = await send(p.slug, { "a.txt": "one" }, { senderEmail: "ana@example.com" });
    const two = await send(p.slug, { "b.txt": "two" }, { senderEmail: "ben@example.com" });
    const oneToken = statusLink((await expectBody(one.done, 200)).statusUrl).token;
    for (const token of [oneToken.slice(0, -2), "", "1.abc"]) {
      const refused = await expectError(await statusOf(p.slug, one.started.uploadId, token), 404);
      expect(refused.code).toBe("not_found");
    }
    // Another upload's token opens nothing here.
    await expectError(await statusOf(p.slug, two.started.uploadId, oneToken), 404);
    // The same confirmation asked again carries the same link.
    const again = await expectBody(
      await complete(p.slug, one.started.uploadId, one.started.transferSpec.token),
      200,
    );
    expect(statusLink(again.statusUrl).token).toBe(oneToken);
  });
});
