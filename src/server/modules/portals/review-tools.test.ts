import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BulkReviewBody } from "@/contract/portal-review";
import { REVIEW_BULK_MAX } from "@/contract/portal-rules";
import { ManualClock } from "@/server/lib/clock";
import { type NodeTest, sha256Hex, startNodeTest } from "@/server/node/node-testing";
import { expectBody, expectError } from "@/server/testing/expect-body";
import { portalHelpers } from "./portal-testing";
import { portalsRouter } from "./portals.index";

/* What the reviewer needs to decide (issue 20): each file's media and SHA-256s, search, bulk. */

let n: NodeTest;
let clock: ManualClock;

beforeEach(async () => {
  clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
  n = await startNodeTest({ clock });
});
afterEach(() => n.close());

const { admin, portal, send, start, complete } = portalHelpers(() => n);
const queue = (query: Record<string, string>) =>
  admin()["portal-uploads"].$get({ param: n.t.ws, query });

function clip(name: string) {
  const out = path.join(fs.mkdtempSync(path.join(n.t.dir, "media-")), name);
  execFileSync("ffmpeg", [
    ...["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=5:duration=2"],
    ...["-f", "lavfi", "-i", "sine=duration=2", "-c:v", "mpeg4", "-c:a", "aac", "-shortest", out],
  ]);
  return fs.readFileSync(out);
}

describe("each file of an upload", () => {
  it("carries the sender's SHA-256, the landed one, whether they match, and what ffprobe found, without a spec", async () => {
    const p = await portal();
    const video = clip("clip.mov");
    const { started } = await send(p.slug, { "clip.mov": video, "notes.txt": "hello" });
    await n.t.deps.jobs.runDue();
    const page = await expectBody(await queue({ portalId: p.id }), 200);
    const folder = started.transferSpec.destinationRoot;
    expect(page.items[0]!.specCheck.status).toBe("not_required");
    expect(page.items[0]!.files).toEqual([
      {
        path: `${folder}/clip.mov`,
        size: video.length,
        mime: "video/quicktime",
        senderSha256: sha256Hex(video),
        sha256: sha256Hex(video),
        sha256Matches: true,
        media: {
          container: "mov",
          videoCodecs: ["mpeg4"],
          audioCodecs: ["aac"],
          durationMs: expect.any(Number),
          width: 64,
          height: 48,
        },
      },
      {
        path: `${folder}/notes.txt`,
        size: 5,
        mime: "text/plain",
        senderSha256: sha256Hex("hello"),
        sha256: sha256Hex("hello"),
        sha256Matches: true,
        media: null,
      },
    ]);
    expect(page.items[0]!.files[0]!.media!.durationMs).toBeGreaterThanOrEqual(1900);
  });

  it("says the match is unknown when the sender declared no SHA-256", async () => {
    const p = await portal();
    const started = await expectBody(
      await start(p.slug, { files: [{ path: "a.txt", size: 3 }] }),
      201,
    );
    const { token, destinationRoot } = started.transferSpec;
    const created = await n.create(token, { path: `${destinationRoot}/a.txt`, length: 3 });
    expect(created.status).toBe(201);
    const res = await n.patch(created.headers.get("location")!, token, 0, Buffer.from("one"));
    expect(res.status).toBe(204);
    await expectBody(await complete(p.slug, started.uploadId, token), 200);
    const page = await expectBody(await queue({ portalId: p.id }), 200);
    expect(page.items[0]!.files[0]).toMatchObject({
      senderSha256: null,
      sha256: sha256Hex("one"),
      sha256Matches: null,
    });
  });
});

describe("searching the queue", () => {
  it("finds uploads by the sender's name or address or the portal's title, any case, % and _ taken literally", async () => {
    const dailies = await portal({ title: "Dailies" });
    const sound = await portal({ title: "Sound 100% mix", targetPath: "Sound" });
    const ana = await send(
      dailies.slug,
      { "a.txt": "a" },
      {
        senderName: "Ana Lima",
        senderEmail: "ana@studio.example",
      },
    );
    const ben = await send(dailies.slug, { "b.txt": "b" }, { senderName: "Ben_Okafor" });
    const cleo = await send(sound.slug, { "c.txt": "c" }, { senderName: "Cleo" });
    const ids = async (q: string, more: Record<string, string> = {}) => {
      const page = await expectBody(await queue({ q, ...more }), 200);
      return { ids: page.items.map((u) => u.id).sort(), total: page.total };
    };
    const sorted = (...u: { started: { uploadId: string } }[]) =>
      u.map((x) => x.started.uploadId).sort();
    expect(await ids("lima")).toEqual({ ids: sorted(ana), total: 1 });
    expect(await ids("STUDIO.example")).toEqual({ ids: sorted(ana), total: 1 });
    expect(await ids("dailies")).toEqual({ ids: sorted(ana, ben), total: 2 });
    expect(await ids("100%")).toEqual({ ids: sorted(cleo), total: 1 });
    expect(await ids("%")).toEqual({ ids: sorted(cleo), total: 1 });
    expect(await ids("n_o")).toEqual({ ids: sorted(ben), total: 1 });
    expect(await ids("a", { portalId: sound.id })).toEqual({ ids: [], total: 0 });
    expect(await ids("ana", { status: "awaiting" })).toEqual({ ids: sorted(ana), total: 1 });
    const long = await expectError(await queue({ q: "x".repeat(201) }), 400);
    expect(long.issues[0]!.field).toBe("query.q");
  });
});

describe("bulk review", () => {
  const bulk = (json: Parameters<typeof bulkPost>[0]["json"], key?: string) =>
    bulkPost({ param: n.t.ws, json }, key);
  const bulkPost = (args: { param: { workspaceId: string }; json: BulkReviewBody }, key?: string) =>
    n.t
      .client(portalsRouter, key === undefined ? {} : { key })
      .workspaces[":workspaceId"]["portal-uploads"].review.$post(args);

  it("approves several uploads in one request and names each one it could not decide", async () => {
    const p = await portal({ approvedPath: "Approved" });
    const other = await portal({ title: "Other", targetPath: "Other" });
    const one = await send(p.slug, { "a.txt": "one" }, { senderName: "Ana" });
    const two = await send(other.slug, { "b.txt": "two" }, { senderName: "Ben" });
    const arriving = await expectBody(
      await start(p.slug, { files: [{ path: "c.txt", size: 3 }] }),
      201,
    );
    const unknown = "zzzzzzzzzzzzzzzzzzzz";
    const result = await expectBody(
      await bulk({
        uploadIds: [one.started.uploadId, two.started.uploadId, arriving.uploadId, unknown],
        decision: "approved",
        note: "Good to go",
      }),
      200,
    );
    expect(result.decided.map((u) => [u.id, u.status, u.reviewNote])).toEqual([
      [one.started.uploadId, "approved", "Good to go"],
      [two.started.uploadId, "approved", "Good to go"],
    ]);
    expect(result.decided[0]!.folderPath).toMatch(/^Approved\//);
    expect(result.refused).toEqual([
      { uploadId: arriving.uploadId, code: "not_received", message: expect.any(String) },
      { uploadId: unknown, code: "not_found", message: expect.any(String) },
    ]);
    const reviewed = n.t.deps.db
      .prepare("SELECT data FROM events WHERE type = 'portal.upload.reviewed' ORDER BY seq")
      .pluck()
      .all()
      .map((d) => JSON.parse(d as string).uploadId);
    expect(reviewed).toEqual([one.started.uploadId, two.started.uploadId]);
    // The approved folder's move ran as its job, as for one decision.
    expect(n.t.deps.db.prepare("SELECT count(*) FROM file_operations").pluck().get()).toBe(1);
  });

  it("refuses an empty list, more than the bound, and a key without portals:write; decides an id named twice once", async () => {
    const p = await portal();
    const one = await send(p.slug, { "a.txt": "one" });
    const id = one.started.uploadId;
    for (const uploadIds of [[], Array.from({ length: REVIEW_BULK_MAX + 1 }, () => id)]) {
      const refused = await expectError(await bulk({ uploadIds, decision: "rejected" }), 400);
      expect(refused.issues[0]!.field).toBe("uploadIds");
    }
    const reader = n.t.keyWith(["receipts:read"]);
    const forbidden = await bulk({ uploadIds: [id], decision: "rejected" }, reader);
    expect(forbidden.status).toBe(403);
    const status = n.t.deps.db
      .prepare("SELECT status FROM portal_uploads WHERE id = ?")
      .pluck()
      .get(id);
    expect(status).toBe("received");
    const twice = await expectBody(await bulk({ uploadIds: [id, id], decision: "pending" }), 200);
    expect(twice.decided.map((u) => u.id)).toEqual([id]);
  });
});
