import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DISABLE_AFTER_FAILURES } from "@/contract/rules";
import { ManualClock } from "@/server/lib/clock";
import { type NodeTest, sha256Hex, startNodeTest } from "@/server/node/node-testing";
import { expectBody } from "@/server/testing/expect-body";
import { writeFile } from "@/server/testing/files-client";
import { operationsRouter } from "../operations/operations.index";
import { portalHelpers } from "../portals/portal-testing";
import { portalsRouter } from "../portals/portals.index";
import { recordShareDownload, recordShareView } from "../shares/share-access";
import { sharesRouter } from "../shares/shares.index";
import { webhooksRouter } from "../webhooks/webhooks.index";
import { setEndpointHealth } from "../webhooks/webhooks.repository";

let n: NodeTest;
let clock: ManualClock;
const HOUR = 3_600_000;

beforeEach(async () => {
  // The node's tus layer measures upload expiry by the wall clock: start from now.
  clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
  n = await startNodeTest({ clock, config: { webhooksAllowPrivate: true } });
});
afterEach(() => n.close());

const { portal, send } = portalHelpers(() => n);

const attention = (o: { key?: string; etag?: string; limit?: number } = {}) =>
  n.t.call("GET", n.t.w(`/attention${o.limit ? `?limit=${o.limit}` : ""}`), {
    key: o.key,
    headers: o.etag ? { "If-None-Match": o.etag } : {},
  });
const read = async (o: { key?: string; limit?: number } = {}) => {
  const res = await attention(o);
  expect(res.status, res.text).toBe(200);
  return res.json;
};

async function share(paths: string[], over: { recipients?: string[]; expiresInDays?: number }) {
  const api = n.t.client(sharesRouter).workspaces[":workspaceId"].shares;
  return expectBody(
    await api.$post({ param: n.t.ws, json: { paths, notify: false, ...over } }),
    201,
  );
}
const recipientId = (shareId: string, email: string) =>
  n.t.deps.db
    .prepare("SELECT id FROM share_recipients WHERE share_id = ? AND email = ?")
    .pluck()
    .get(shareId, email) as string;

/** A completed download of `path` as its engine reports it, `sha256` over what it received. */
function download(shareId: string, recipient: string | null, path: string, sha256: string | null) {
  const at = clock.now();
  clock.advance(1000);
  return recordShareDownload(n.t.deps, {
    shareId,
    recipientId: recipient,
    startedAt: at,
    completedAt: at + 500,
    files: [{ path, bytes: 5, sha256 }],
  });
}

describe("GET attention", () => {
  it("lists uploads awaiting review, and an upload leaves once it is decided", async () => {
    const p = await portal({ title: "Dailies" });
    const { started } = await send(p.slug, { "a.txt": "one" }, { senderName: "Ana" });
    await send(p.slug, { "b.txt": "two" }, { senderName: "Ben" });

    const before = await read();
    expect(before.uploads.total).toBe(2);
    // Newest first, as the review queue lists them.
    expect(before.uploads.items.map((u: { senderName: string }) => u.senderName)).toEqual([
      "Ben",
      "Ana",
    ]);
    expect(before.uploads.items[1]).toMatchObject({
      id: started.uploadId,
      portalId: p.id,
      portalTitle: "Dailies",
      senderName: "Ana",
      status: "received",
      fileCount: 1,
    });
    expect(before.total).toBe(2);

    const review = n.t.client(portalsRouter).workspaces[":workspaceId"].portals[":portalId"];
    await expectBody(
      await review.uploads[":uploadId"].review.$post({
        param: { ...n.t.ws, portalId: p.id, uploadId: started.uploadId },
        json: { decision: "approved" },
      }),
      200,
    );
    const after = await read();
    expect(after.uploads.total).toBe(1);
    expect(after.uploads.items.map((u: { senderName: string }) => u.senderName)).toEqual(["Ben"]);
  });

  it("lists a failed verification until a later matching download of that file by the same recipient", async () => {
    await writeFile(n.t, "Deliver/cut.mov", "intact");
    const s = await share(["Deliver"], {
      recipients: ["ana@example.com", "ben@example.com"],
    });
    const ana = recipientId(s.id, "ana@example.com");
    const ben = recipientId(s.id, "ben@example.com");
    const good = sha256Hex("intact");

    download(s.id, ana, "Deliver/cut.mov", null); // not hashed: unverified, not a failure
    expect((await read()).failedDownloads).toEqual({ total: 0, items: [] });

    const bad = download(s.id, ana, "Deliver/cut.mov", sha256Hex("corrupt"));
    let found = (await read()).failedDownloads;
    expect(found.total).toBe(1);
    expect(found.items[0]).toMatchObject({
      downloadId: bad.downloadId,
      shareId: s.id,
      recipient: "ana@example.com",
      failedFiles: 1,
    });

    download(s.id, ben, "Deliver/cut.mov", good); // someone else's intact copy is not Ana's
    download(s.id, null, "Deliver/cut.mov", good); // nor is the open link's
    expect((await read()).failedDownloads.total).toBe(1);

    download(s.id, ana, "Deliver/cut.mov", good);
    found = (await read()).failedDownloads;
    expect(found).toEqual({ total: 0, items: [] });

    // A failure after the good copy needs attention again.
    download(s.id, ana, "Deliver/cut.mov", sha256Hex("corrupt again"));
    expect((await read()).failedDownloads.total).toBe(1);
  });

  it("lists live shares expiring within 48 hours that nobody opened, soonest first", async () => {
    await writeFile(n.t, "a.txt", "a");
    const soon = await share(["a.txt"], { expiresInDays: 1 });
    const opened = await share(["a.txt"], { expiresInDays: 1 });
    await share(["a.txt"], { expiresInDays: 3 });
    recordShareView(n.t.deps, { shareId: opened.id, recipientId: null, address: null });

    let found = (await read()).expiringShares;
    expect(found.items.map((s: { shareId: string }) => s.shareId)).toEqual([soon.id]);
    expect(found.items[0]).toMatchObject({ expiresAt: soon.expiresAt, recipients: 0 });

    clock.advance(25 * HOUR); // the first two expired, the third is now within 48 h
    found = (await read()).expiringShares;
    expect(found.total).toBe(1);
    expect(found.items[0].shareId).not.toBe(soon.id);
  });

  it("lists endpoints the dispatcher disabled, not those a member disabled", async () => {
    const hooks = n.t.client(webhooksRouter).workspaces[":workspaceId"].webhooks;
    const create = async (url: string) =>
      expectBody(await hooks.$post({ param: n.t.ws, json: { url, events: ["*"] } }), 201);
    const dead = await create("https://example.com/dead");
    const paused = await create("https://example.com/paused");
    setEndpointHealth(n.t.deps.db, dead.id, {
      failureCount: DISABLE_AFTER_FAILURES,
      status: "disabled",
      lastDeliveryAt: clock.now(),
    });
    await expectBody(
      await hooks[":webhookId"].$patch({
        param: { ...n.t.ws, webhookId: paused.id },
        json: { status: "disabled" },
      }),
      200,
    );
    const found = (await read()).disabledEndpoints;
    expect(found).toEqual({
      total: 1,
      items: [
        {
          webhookId: dead.id,
          url: "https://example.com/dead",
          description: null,
          failureCount: DISABLE_AFTER_FAILURES,
          lastDeliveryAt: new Date(clock.now()).toISOString(),
        },
      ],
    });
  });

  it("lists failed jobs for seven days", async () => {
    await writeFile(n.t, "a.txt", "a");
    n.t.deps.files.createFolder(n.t.workspaceId, "dst");
    const ops = n.t.client(operationsRouter).workspaces[":workspaceId"].files.operations;
    const job = await expectBody(
      await ops.$post({
        param: n.t.ws,
        json: { kind: "copy", paths: ["a.txt"], destination: "dst" },
      }),
      201,
    );
    await writeFile(n.t, "dst/a.txt", "taken meanwhile"); // a conflict with no choice fails it
    await n.t.deps.jobs.runDue();
    const found = (await read()).failedJobs;
    expect(found.total).toBe(1);
    expect(found.items[0]).toMatchObject({ jobId: job.id, kind: "copy", status: "failed" });
    expect(found.items[0].error).toContain("already exists");

    clock.advance(8 * 24 * HOUR);
    expect((await read()).failedJobs.total).toBe(0);
  });

  it("shows only the sections the key's scopes read, and refuses a key that reads none", async () => {
    const webhooksOnly = n.t.keyWith(["webhooks:manage"]);
    expect(Object.keys(await read({ key: webhooksOnly })).sort()).toEqual([
      "disabledEndpoints",
      "total",
    ]);
    const receipts = n.t.keyWith(["receipts:read"]);
    expect(Object.keys(await read({ key: receipts })).sort()).toEqual([
      "expiringShares",
      "failedDownloads",
      "total",
      "uploads",
    ]);
    const usage = await attention({ key: n.t.keyWith(["usage:read"]) });
    expect(usage.status).toBe(403);
    expect(usage.json.error.code).toBe("forbidden");
  });

  it("answers 304 to an unchanged poll, and a new ETag once something changes", async () => {
    const first = await attention();
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await attention({ etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("ETag")).toBe(etag);

    const p = await portal();
    await send(p.slug, { "a.txt": "one" });
    const changed = await attention({ etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(etag);
    expect(changed.json.uploads.total).toBe(1);
  });

  it("lists at most `limit` entries per section and counts them all", async () => {
    const p = await portal();
    for (const name of ["a", "b", "c"]) await send(p.slug, { [`${name}.txt`]: name });
    const found = await read({ limit: 2 });
    expect(found.uploads.total).toBe(3);
    expect(found.uploads.items).toHaveLength(2);
    expect((await attention({ limit: 51 })).status).toBe(400);
  });
});
