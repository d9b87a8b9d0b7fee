import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "@/server/lib/clock";
import { type NodeTest, startNodeTest } from "@/server/node/node-testing";
import { expectBody, expectError } from "@/server/testing/expect-body";
import { portalHelpers } from "./portal-testing";

/*
 * A portal that closes while a sender is still sending (docs/api-decisions.md, The portal
 * page, Closing with uploads in flight): revoked or expired, the node takes no more bytes and
 * `complete` refuses; paused, both wait until the portal is active again.
 */

let n: NodeTest;
let clock: ManualClock;

beforeEach(async () => {
  // The node's tus layer measures upload expiry by the wall clock: start from now.
  clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
  n = await startNodeTest({ clock });
});
afterEach(() => n.close());

const { admin, portal, start, complete } = portalHelpers(() => n);
const HOUR = 3_600_000;
const bytes = Buffer.from("abcdef");

/** A started upload of `a.txt` (6 bytes) and `b.txt`, with the first 3 bytes of `a.txt` landed. */
async function halfSent(slug: string) {
  const started = await expectBody(
    await start(slug, {
      files: [
        { path: "a.txt", size: bytes.length },
        { path: "b.txt", size: 1 },
      ],
    }),
    201,
  );
  const { token, destinationRoot } = started.transferSpec;
  const created = await n.create(token, { path: `${destinationRoot}/a.txt`, length: bytes.length });
  expect(created.status, await created.text()).toBe(201);
  const location = created.headers.get("location")!;
  const first = await n.patch(location, token, 0, bytes.subarray(0, 3));
  expect(first.status, await first.text()).toBe(204);
  const sendFrom = (offset: number, end = bytes.length) =>
    n.patch(location, token, offset, bytes.subarray(offset, end));
  const sendB = () => n.upload(token, `${destinationRoot}/b.txt`, Buffer.from("b"));
  const reportDone = () => complete(slug, started.uploadId, token);
  return { started, sendFrom, sendB, reportDone };
}

const statusOf = (table: "transfers" | "portal_uploads", id: string) =>
  n.t.deps.db.prepare(`SELECT status FROM ${table} WHERE id = ?`).pluck().get(id);

describe("a portal that closes with uploads in flight", () => {
  it("revoked: its running transfers are cancelled, the node takes no more bytes, complete refuses", async () => {
    const p = await portal();
    const up = await halfSent(p.slug);
    const revoked = await admin().portals[":portalId"].$delete({
      param: { ...n.t.ws, portalId: p.id },
    });
    expect(revoked.status).toBe(204);
    expect(statusOf("transfers", up.started.transferId)).toBe("cancelled");
    expect(statusOf("portal_uploads", up.started.uploadId)).toBe("failed");
    const more = await expectError(await up.sendFrom(3), 401);
    expect(more.details.reason).toBe("transfer_ended");
    expect((await up.sendB()).status).toBe(401);
    const done = await expectError(await up.reportDone(), 403);
    expect(done.details.reason).toBe("portal_revoked");
    expect(n.uploads().map((u) => u.status)).toEqual(["cancelled"]);
  });

  it("expired: the node takes no more bytes and complete refuses", async () => {
    const p = await portal({ expiresInDays: 1 });
    const up = await halfSent(p.slug);
    clock.advance(23 * HOUR);
    expect((await up.sendFrom(3, 4)).status).toBe(204);
    clock.advance(HOUR + 60_000);
    const more = await expectError(await up.sendFrom(4), 403);
    expect(more.details.reason).toBe("portal_expired");
    const done = await expectError(await up.reportDone(), 403);
    expect(done.details.reason).toBe("portal_expired");
    expect(statusOf("portal_uploads", up.started.uploadId)).toBe("uploading");
  });

  it("paused: bytes and complete wait; once active again the upload resumes and lands", async () => {
    const p = await portal();
    const up = await halfSent(p.slug);
    const param = { ...n.t.ws, portalId: p.id };
    await expectBody(
      await admin().portals[":portalId"].$patch({ param, json: { status: "paused" } }),
      200,
    );
    const held = await expectError(await up.sendFrom(3), 403);
    expect(held.details.reason).toBe("portal_paused");
    expect((await expectError(await up.reportDone(), 403)).details.reason).toBe("portal_paused");
    await expectBody(
      await admin().portals[":portalId"].$patch({ param, json: { status: "active" } }),
      200,
    );
    expect((await up.sendFrom(3)).status).toBe(204);
    expect((await up.sendB()).status).toBe(204);
    expect((await expectBody(await up.reportDone(), 200)).fileCount).toBe(2);
  });
});
