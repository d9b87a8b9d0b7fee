import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { type EventType, eventDataSchemas } from "@/contract/events";
import { type CreateShareBody, SHARE_FILES_MAX, type UpdateShareBody } from "@/contract/shares";
import { createDeps } from "@/server/deps";
import { testConfig } from "@/server/env";
import { ManualClock } from "@/server/lib/clock";
import { seedEntries } from "@/server/modules/files/bulk-seed";
import { diskBlobs } from "@/server/testing/disk-blobs";
import { expectBody, expectError, okBody } from "@/server/testing/expect-body";
import { filesClient, writeFile } from "@/server/testing/files-client";
import { type TestApp, testAppEach } from "@/server/testing/test-app";
import { recordShareDownload, recordShareView, resolveShareLink } from "./share-access";
import { sharesRouter } from "./shares.index";
import { registerSharesWorkers } from "./shares.workers";

let t: TestApp;
let clock: ManualClock;
const DAY = 86_400_000;

testAppEach(async (app, c) => {
  t = app;
  clock = c;
  await writeFile(t, "Deliveries/cut/reel1.mov", "reel one");
  await writeFile(t, "Deliveries/cut/reel2.mov", "reel two");
  await writeFile(t, "Deliveries/notes.txt", "notes");
});

const ws = (key?: string) => t.client(sharesRouter, { key }).workspaces[":workspaceId"];
const api = (key?: string) => ws(key).shares;
const create = (json: CreateShareBody, key?: string) => api(key).$post({ param: t.ws, json });
const share = async (over: Partial<CreateShareBody> = {}) =>
  expectBody(await create({ paths: ["Deliveries/cut"], ...over }), 201);
const one = (shareId: string, key?: string) =>
  api(key)[":shareId"].$get({ param: { ...t.ws, shareId } });
const patch = (shareId: string, json: UpdateShareBody, key?: string) =>
  api(key)[":shareId"].$patch({ param: { ...t.ws, shareId }, json });
const revoke = (shareId: string, key?: string) =>
  api(key)[":shareId"].$delete({ param: { ...t.ws, shareId } });
const list = async (query: Record<string, string> = {}) =>
  okBody(await api().$get({ param: t.ws, query }));
const ids = async (query: Record<string, string> = {}) =>
  (await list(query)).items.map((s) => s.id);
/** The events of a type, each checked against the contract's schema for its data. */
const events = (type: EventType) =>
  (
    t.deps.db
      .prepare("SELECT data FROM events WHERE type = ? ORDER BY id")
      .pluck()
      .all(type) as string[]
  ).map((d) => eventDataSchemas[type].parse(JSON.parse(d)));
const refCount = (sha: string) =>
  t.deps.db.prepare("SELECT ref_count FROM blobs WHERE sha256 = ?").pluck().get(sha) as
    | number
    | undefined;

describe("create", () => {
  it("snapshots a folder's files, makes links and records share.created", async () => {
    const s = await share({
      paths: ["Deliveries/cut", "Deliveries/notes.txt", "Deliveries/cut/reel1.mov"],
      message: "Final reels",
      recipients: ["Ana@Example.com", "ana@example.com", "bo@example.com"],
      password: "correct horse",
      maxDownloads: 3,
      openLink: true,
    });
    expect(s.status).toBe("active");
    expect(s.title).toBe("cut");
    expect(s.items).toEqual([
      { path: "Deliveries/cut", type: "folder", sizeBytes: 16, fileCount: 2 },
      { path: "Deliveries/notes.txt", type: "file", sizeBytes: 5, fileCount: 1 },
    ]);
    expect([s.fileCount, s.totalBytes, s.maxDownloads, s.passwordProtected]).toEqual([
      3,
      21,
      3,
      true,
    ]);
    expect(s.expiresAt).toBe("2026-06-08T12:00:00.000Z");
    expect(s.url).toMatch(/^http:\/\/consign\.test\/s\/[A-Za-z0-9]{22}$/);
    expect(s.recipients.map((r) => r.email)).toEqual(["ana@example.com", "bo@example.com"]);
    expect(s.recipientLinks.map((l) => l.email)).toEqual(["ana@example.com", "bo@example.com"]);
    expect(JSON.stringify(s)).not.toContain("correct horse");
    const hash = t.deps.db.prepare("SELECT password_hash FROM shares").pluck().get() as string;
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    // The personal link names its recipient; the plain one nobody.
    const token = (url: string) => url.slice(url.lastIndexOf("/") + 1);
    expect(resolveShareLink(t.deps.db, token(s.recipientLinks[1]!.url))?.recipientId).toBe(
      s.recipients[1]!.id,
    );
    expect(resolveShareLink(t.deps.db, token(s.url!))?.recipientId).toBeNull();
    expect(resolveShareLink(t.deps.db, "A".repeat(32))).toBeNull();
    const [event] = events("share.created");
    expect(event).toMatchObject({
      shareId: s.id,
      title: "cut",
      expiresAt: s.expiresAt,
      recipients: ["ana@example.com", "bo@example.com"],
      items: [
        { path: "Deliveries/cut", sizeBytes: 16 },
        { path: "Deliveries/notes.txt", sizeBytes: 5 },
      ],
    });
    // get answers the same share, without the personal links
    const got = await okBody(await one(s.id));
    expect(got.id).toBe(s.id);
    expect(got).not.toHaveProperty("recipientLinks");
  });

  it("makes only personal links for recipients unless an open link is asked for", async () => {
    const token = (url: string) => url.slice(url.lastIndexOf("/") + 1);
    const plainTokenOf = (id: string) =>
      t.deps.db.prepare("SELECT link_token FROM shares WHERE id = ?").pluck().get(id) as string;
    const personal = await share({ recipients: ["ana@example.com"] });
    expect(personal.url).toBeNull();
    expect((await okBody(await one(personal.id))).url).toBeNull();
    expect(resolveShareLink(t.deps.db, plainTokenOf(personal.id))).toBeNull();
    expect(resolveShareLink(t.deps.db, token(personal.recipientLinks[0]!.url))?.recipientId).toBe(
      personal.recipients[0]!.id,
    );
    // Asked for: the open link too. Without recipients the open link is the default.
    const both = await share({ recipients: ["ana@example.com"], openLink: true });
    expect(resolveShareLink(t.deps.db, token(both.url!))?.recipientId).toBeNull();
    const anyone = await share();
    expect(resolveShareLink(t.deps.db, token(anyone.url!))?.share.id).toBe(anyone.id);
    // No recipient and no open link: nobody could open it.
    const none = await expectError(
      await create({ paths: ["Deliveries/cut"], openLink: false }),
      400,
    );
    expect(none.issues[0]).toMatchObject({ field: "openLink", code: "no_link" });
  });

  it("puts each recipient's mail in the outbox when no SMTP server is set", async () => {
    const s = await share({ recipients: ["ana@example.com"], title: "Reels", message: "Hi Ana" });
    const outbox = await okBody(await ws().outbox.$get({ param: t.ws, query: {} }));
    expect(outbox.items).toHaveLength(1);
    const [m] = outbox.items;
    expect(m).toMatchObject({
      shareId: s.id,
      to: "ana@example.com",
      status: "waiting",
      sentAt: null,
    });
    expect(m!.link).toBe(s.recipientLinks[0]!.url);
    expect(m!.text).toContain(s.recipientLinks[0]!.url);
    expect(m!.text).toContain("Hi Ana");
    expect(m!.subject).toContain("Reels");
    // notify false: links made, nothing mailed
    await share({ recipients: ["bo@example.com"], notify: false });
    expect((await okBody(await ws().outbox.$get({ param: t.ws, query: {} }))).items).toHaveLength(
      1,
    );
  });

  it("holds every bound", async () => {
    const bad = async (body: Partial<CreateShareBody>, field: string) => {
      const e = await expectError(
        await create({ paths: ["Deliveries/cut"], ...body } as never),
        400,
      );
      expect(e.code).toBe("validation_failed");
      expect(e.issues.map((i) => i.field)).toContain(field);
    };
    await bad({ paths: [] }, "paths");
    await bad({ paths: Array.from({ length: 101 }, (_, i) => `p${i}`) }, "paths");
    await bad({ title: "x".repeat(201) }, "title");
    await bad({ title: "  " }, "title");
    await bad({ message: "x".repeat(2001) }, "message");
    await bad({ expiresInDays: 0 }, "expiresInDays");
    await bad({ expiresInDays: 366 }, "expiresInDays");
    await bad({ maxDownloads: 0 }, "maxDownloads");
    await bad({ maxDownloads: 10_001 }, "maxDownloads");
    await bad({ password: "short12" }, "password");
    await bad({ password: "x".repeat(257) }, "password");
    await bad({ recipients: ["not an address"] }, "recipients.0");
    await bad(
      { recipients: Array.from({ length: 51 }, (_, i) => `r${i}@example.com`) },
      "recipients",
    );
    // at the bounds
    await share({
      title: "x".repeat(200),
      message: "x".repeat(2000),
      expiresInDays: 365,
      maxDownloads: 10_000,
      password: "x".repeat(256),
      recipients: Array.from({ length: 50 }, (_, i) => `r${i}@example.com`),
    });
    const rejected = await expectError(await create({ paths: ["/abs"] }), 400);
    expect(rejected.code).toBe("path_rejected");
  });

  it("refuses unknown paths, empty folders, too many files and protected files", async () => {
    const missing = await expectError(await create({ paths: ["Nope"] }), 404);
    expect(missing.details).toEqual({ path: "Nope" });
    await okBody(await filesClient(t).folder.$post({ param: t.ws, json: { path: "Empty" } }));
    const empty = await expectError(await create({ paths: ["Empty"] }), 400);
    expect(empty.issues[0]!.code).toBe("no_files");
    await seedEntries(t.deps.files, t.workspaceId, "Big", SHARE_FILES_MAX - 2, {
      folderEvery: 0,
      pauseMs: 0,
    });
    const atLimit = await share({ paths: ["Big", "Deliveries/cut"] });
    expect(atLimit.fileCount).toBe(SHARE_FILES_MAX);
    const over = await expectError(await create({ paths: ["Big", "Deliveries"] }), 400);
    expect(over.issues[0]!.code).toBe("too_many_files");
    t.deps.db
      .prepare("UPDATE entries SET protection = '{}' WHERE path = 'Deliveries/notes.txt'")
      .run();
    const locked = await expectError(await create({ paths: ["Deliveries"] }), 400);
    expect(locked.issues[0]!.code).toBe("content_protected");
  });

  it("delivers what was shared, whatever happens to the files later", async () => {
    const s = await share({ paths: ["Deliveries/notes.txt"] });
    const receipt = async () =>
      okBody(await api()[":shareId"].receipt.$get({ param: { ...t.ws, shareId: s.id } }));
    const before = (await receipt()).files[0]!;
    expect(refCount(before.sha256)).toBe(2); // the file and the share
    await writeFile(t, "Deliveries/notes.txt", "rewritten notes");
    await okBody(
      await filesClient(t).$delete({
        param: t.ws,
        json: { paths: ["Deliveries"], permanent: true },
      }),
    );
    const after = (await receipt()).files[0]!;
    expect(after).toEqual(before);
    expect(refCount(before.sha256)).toBe(1);
    expect(fs.existsSync(diskBlobs(t.deps.files).pathOf(before.sha256))).toBe(true);
    // revoking gives the hold back, and nobody else holds it: the bytes go
    await okBody(await revoke(s.id));
    expect(refCount(before.sha256)).toBeUndefined();
    expect(fs.existsSync(diskBlobs(t.deps.files).pathOf(before.sha256))).toBe(false);
  });
});

describe("scopes", () => {
  it("lets a receipts key read, a shares key write, and refuses others", async () => {
    const s = await share({ recipients: ["ana@example.com"] });
    const reader = t.keyWith(["receipts:read"]);
    const writer = t.keyWith(["shares:write"]);
    const files = t.keyWith(["files:read", "files:write"]);
    const forbidden = async (res: Parameters<typeof expectError>[0]) =>
      expect((await expectError(res, 403)).details.reason).toBe("missing_scope");
    const p = { ...t.ws, shareId: s.id };
    for (const key of [reader, writer]) {
      await okBody(await api(key).$get({ param: t.ws, query: {} }));
      await okBody(await one(s.id, key));
      await okBody(await api(key)[":shareId"].comments.$get({ param: p, query: {} }));
      await okBody(await api(key)[":shareId"].receipt.$get({ param: p }));
    }
    expect((await t.call("GET", t.w(`/shares/${s.id}/receipt.pdf`), { key: reader })).status).toBe(
      200,
    );
    expect((await t.call("GET", t.w(`/shares/${s.id}/receipt.csv`), { key: reader })).status).toBe(
      200,
    );
    expect(
      (await t.call("GET", t.w(`/shares/${s.id}/delivery-note.pdf`), { key: reader })).status,
    ).toBe(200);
    for (const suffix of ["receipt.pdf", "receipt.csv", "delivery-note.pdf"]) {
      const res = await t.call("GET", t.w(`/shares/${s.id}/${suffix}`), { key: writer });
      expect([res.status, res.json.error.code]).toEqual([403, "forbidden"]);
    }
    await forbidden(await create({ paths: ["Deliveries"] }, reader));
    await forbidden(await patch(s.id, { expiresInDays: 3 }, reader));
    await forbidden(await revoke(s.id, reader));
    await forbidden(
      await api(reader)[":shareId"].comments.$post({ param: p, json: { body: "hi" } }),
    );
    await forbidden(await api(reader)[":shareId"].resend.$post({ param: p, json: {} }));
    await forbidden(await ws(reader).outbox.$get({ param: t.ws, query: {} }));
    await forbidden(await api(files).$get({ param: t.ws, query: {} }));
    await forbidden(await one(s.id, files));
    await expectBody(await create({ paths: ["Deliveries"] }, writer), 201);
  });

  it("answers 404 for an unknown share on every operation", async () => {
    const p = { ...t.ws, shareId: "01jz0000000000000000000000" };
    for (const res of [
      await one(p.shareId),
      await patch(p.shareId, { expiresInDays: 1 }),
      await revoke(p.shareId),
      await api()[":shareId"].comments.$get({ param: p, query: {} }),
      await api()[":shareId"].comments.$post({ param: p, json: { body: "x" } }),
      await api()[":shareId"].resend.$post({ param: p, json: {} }),
      await api()[":shareId"].receipt.$get({ param: p }),
    ])
      expect((await expectError(res, 404)).code).toBe("not_found");
    for (const suffix of ["receipt.pdf", "receipt.csv", "delivery-note.pdf"])
      expect((await t.call("GET", t.w(`/shares/${p.shareId}/${suffix}`))).status).toBe(404);
  });
});

describe("list", () => {
  it("filters by status, expiry, opening and recipient, and pages", async () => {
    const active = await share({ recipients: ["ana@example.com"], expiresInDays: 30 });
    const soon = await share({ expiresInDays: 2, recipients: ["bo@example.com"] });
    const revoked = await share();
    await okBody(await revoke(revoked.id));
    const exhausted = await share({ maxDownloads: 1 });
    recordShareDownload(t.deps, {
      shareId: exhausted.id,
      recipientId: null,
      startedAt: clock.now(),
      completedAt: clock.now(),
      files: [{ path: "Deliveries/cut/reel1.mov", bytes: 8, sha256: null }],
    });
    const expired = await share({ expiresInDays: 1 });
    recordShareView(t.deps, { shareId: soon.id, recipientId: null, address: "203.0.113.9" });
    clock.advance(DAY + 1);

    expect(await ids({ status: "active" })).toEqual([soon.id, active.id]);
    expect(await ids({ status: "expired" })).toEqual([expired.id]);
    expect(await ids({ status: "revoked" })).toEqual([revoked.id]);
    expect(await ids({ status: "exhausted" })).toEqual([exhausted.id]);
    expect(await ids({ expiringWithinDays: "2" })).toEqual([soon.id]);
    expect(await ids({ expiringWithinDays: "365" })).toEqual([soon.id, active.id]);
    expect(await ids({ neverOpened: "true" })).toEqual([expired.id, revoked.id, active.id]);
    expect(await ids({ recipient: "BO@example.com" })).toEqual([soon.id]);
    expect(await ids({ recipient: "nobody@example.com" })).toEqual([]);
    // the delivery verdict: one of the two files came through the plain link, unchecked
    expect(await ids({ verdict: "partly_delivered" })).toEqual([exhausted.id]);
    expect(await ids({ verdict: "not_delivered", status: "active" })).toEqual([soon.id, active.id]);
    expect(await ids({ verdict: "verified" })).toEqual([]);
    expect((await list()).items.map((s) => s.verdict)).toEqual([
      "not_delivered",
      "partly_delivered",
      "not_delivered",
      "not_delivered",
      "not_delivered",
    ]);
    const statuses = (await list()).items.map((s) => s.status);
    expect(statuses).toEqual(["expired", "exhausted", "revoked", "active", "active"]);

    const first = await list({ limit: "2" });
    expect(first.items.map((s) => s.id)).toEqual([expired.id, exhausted.id]);
    const second = await list({ limit: "2", cursor: first.next! });
    expect(second.items.map((s) => s.id)).toEqual([revoked.id, soon.id]);
    const third = await list({ limit: "2", cursor: second.next! });
    expect([third.items.map((s) => s.id), third.next]).toEqual([[active.id], null]);

    for (const query of [
      { limit: "0" },
      { limit: "201" },
      { expiringWithinDays: "0" },
      { status: "gone" },
    ])
      expect((await expectError(await api().$get({ param: t.ws, query } as never), 400)).code).toBe(
        "validation_failed",
      );
  });
});

describe("extend and revoke", () => {
  it("extends by days or to a time, changes the limit, and records share.extended", async () => {
    const s = await share({ maxDownloads: 2 });
    const byDays = await okBody(await patch(s.id, { expiresInDays: 30 }));
    expect(byDays.expiresAt).toBe("2026-07-01T12:00:00.000Z");
    const toTime = await okBody(
      await patch(s.id, { expiresAt: "2026-06-20T00:00:00Z", maxDownloads: null }),
    );
    expect([toTime.expiresAt, toTime.maxDownloads]).toEqual(["2026-06-20T00:00:00.000Z", null]);
    expect(events("share.extended")).toEqual([
      {
        shareId: s.id,
        expiresAt: "2026-07-01T12:00:00.000Z",
        previousExpiresAt: "2026-06-08T12:00:00.000Z",
        maxDownloads: 2,
        previousMaxDownloads: 2,
      },
      {
        shareId: s.id,
        expiresAt: "2026-06-20T00:00:00.000Z",
        previousExpiresAt: "2026-07-01T12:00:00.000Z",
        maxDownloads: null,
        previousMaxDownloads: 2,
      },
    ]);
    const refused = async (body: UpdateShareBody, code: string) =>
      expect((await expectError(await patch(s.id, body as never), 400)).issues[0]!.code).toBe(code);
    await refused({}, "custom");
    await refused({ expiresInDays: 2, expiresAt: "2026-06-20T00:00:00Z" }, "custom");
    await refused({ expiresAt: "2026-06-01T11:00:00Z" }, "in_the_past");
    await refused({ expiresAt: "2027-06-02T12:00:00Z" }, "too_far");
    await refused({ expiresInDays: 366 }, "too_big");
    await refused({ maxDownloads: 0 }, "too_small");
  });

  it("brings an expired or exhausted share back, but never a revoked one", async () => {
    const s = await share({ expiresInDays: 1, maxDownloads: 1 });
    clock.advance(2 * DAY);
    await t.deps.jobs.runDue();
    expect((await okBody(await one(s.id))).status).toBe("expired");
    const back = await okBody(await patch(s.id, { expiresInDays: 5 }));
    expect([back.status, back.expiredAt]).toEqual(["active", null]);
    recordShareDownload(t.deps, {
      shareId: s.id,
      recipientId: null,
      startedAt: clock.now(),
      completedAt: clock.now(),
      files: [],
    });
    expect((await okBody(await one(s.id))).status).toBe("exhausted");
    expect((await okBody(await patch(s.id, { maxDownloads: 2 }))).status).toBe("active");

    const gone = await okBody(await revoke(s.id));
    expect([gone.status, gone.revokedAt]).toEqual(["revoked", "2026-06-03T12:00:00.000Z"]);
    const again = await okBody(await revoke(s.id));
    expect(again.revokedAt).toBe(gone.revokedAt);
    expect(events("share.revoked")).toEqual([{ shareId: s.id }]);
    const refused = await expectError(await patch(s.id, { expiresInDays: 3 }), 400);
    expect(refused.issues[0]!.code).toBe("revoked");
  });
});

describe("expiry", () => {
  it("records share.expired once, at the expiry in force, across runs and extensions", async () => {
    const s = await share({ expiresInDays: 1 });
    clock.advance(DAY - 1);
    await t.deps.jobs.runDue();
    expect(events("share.expired")).toEqual([]);
    // extended before it expired: the first job finds nothing to do
    await okBody(await patch(s.id, { expiresInDays: 2 }));
    clock.advance(2);
    await t.deps.jobs.runDue();
    expect(events("share.expired")).toEqual([]);
    clock.advance(2 * DAY);
    await t.deps.jobs.runDue();
    await t.deps.jobs.runDue();
    expect(events("share.expired")).toEqual([
      { shareId: s.id, expiredAt: "2026-06-04T11:59:59.999Z" },
    ]);
    // a second runner (a restart) enqueuing the same slot cannot make it fire again
    t.deps.jobs.enqueue("shares.expire", {
      shareId: s.id,
      expiresAt: Date.parse("2026-06-04T11:59:59.999Z"),
    });
    await t.deps.jobs.runDue();
    expect(events("share.expired")).toHaveLength(1);
    const expired = await okBody(await one(s.id));
    expect([expired.status, expired.expiredAt]).toEqual(["expired", "2026-06-04T12:00:00.001Z"]);
  });

  it("fires once after a restart: another process on the same data dir runs the job", async () => {
    const s = await share({ expiresInDays: 1 });
    const later = new ManualClock(clock.now() + 2 * DAY);
    const restarted = createDeps(testConfig(t.dir), { clock: later });
    try {
      registerSharesWorkers(restarted);
      expect(await restarted.jobs.runDue()).toBe(1);
      clock.set(later.now());
      await t.deps.jobs.runDue();
      await restarted.jobs.runDue();
    } finally {
      restarted.db.close();
    }
    expect(events("share.expired")).toEqual([
      { shareId: s.id, expiredAt: "2026-06-02T12:00:00.000Z" },
    ]);
  });

  it("records no expiry for a revoked share", async () => {
    const s = await share({ expiresInDays: 1 });
    await okBody(await revoke(s.id));
    clock.advance(2 * DAY);
    await t.deps.jobs.runDue();
    expect(events("share.expired")).toEqual([]);
  });
});

describe("comments", () => {
  it("adds comments and replies in threads one level deep, and pages", async () => {
    const s = await share();
    const p = { ...t.ws, shareId: s.id };
    const comments = api()[":shareId"].comments;
    const first = await expectBody(
      await comments.$post({ param: p, json: { body: "  Looks good  " } }),
      201,
    );
    expect(first).toMatchObject({ shareId: s.id, parentId: null, body: "Looks good" });
    expect(first.author).toMatchObject({ kind: "member" });
    expect(first.author.email).toBeTruthy();
    const reply = await expectBody(
      await comments.$post({ param: p, json: { body: "Thanks", parentId: first.id } }),
      201,
    );
    const nested = await expectBody(
      await comments.$post({ param: p, json: { body: "More", parentId: reply.id } }),
      201,
    );
    expect([reply.parentId, nested.parentId]).toEqual([first.id, first.id]);
    const page = await okBody(await comments.$get({ param: p, query: { limit: "2" } }));
    expect(page.items.map((c) => c.id)).toEqual([first.id, reply.id]);
    const rest = await okBody(await comments.$get({ param: p, query: { after: page.next! } }));
    expect([rest.items.map((c) => c.id), rest.next]).toEqual([[nested.id], null]);
    expect((await okBody(await one(s.id))).commentCount).toBe(3);

    const other = await share();
    const stranger = await expectError(
      await api()[":shareId"].comments.$post({
        param: { ...t.ws, shareId: other.id },
        json: { body: "x", parentId: first.id },
      }),
      400,
    );
    expect(stranger.issues[0]!.code).toBe("unknown_parent");
    for (const body of ["", "   ", "x".repeat(2001)])
      expect(
        (await expectError(await comments.$post({ param: p, json: { body } }), 400)).code,
      ).toBe("validation_failed");
    await expectBody(await comments.$post({ param: p, json: { body: "x".repeat(2000) } }), 201);
  });
});

describe("resend", () => {
  it("mails a fresh link to all or some recipients, and the earlier links keep working", async () => {
    const s = await share({ recipients: ["ana@example.com", "bo@example.com"] });
    const p = { ...t.ws, shareId: s.id };
    const resend = api()[":shareId"].resend;
    const all = await okBody(await resend.$post({ param: p, json: {} }));
    expect(all.messages.map((m) => m.to)).toEqual(["ana@example.com", "bo@example.com"]);
    const some = await okBody(
      await resend.$post({ param: p, json: { recipients: ["BO@example.com"] } }),
    );
    expect(some.messages.map((m) => m.to)).toEqual(["bo@example.com"]);
    const links = [s.recipientLinks[1]!.url, all.messages[1]!.link!, some.messages[0]!.link!];
    expect(new Set(links).size).toBe(3);
    for (const url of links)
      expect(resolveShareLink(t.deps.db, url.slice(url.lastIndexOf("/") + 1))?.recipientId).toBe(
        s.recipients[1]!.id,
      );
    const unknown = await expectError(
      await resend.$post({ param: p, json: { recipients: ["eve@example.com"] } }),
      400,
    );
    expect([unknown.issues[0]!.code, unknown.details.emails]).toEqual([
      "unknown_recipient",
      ["eve@example.com"],
    ]);
    const none = await share();
    const empty = await expectError(
      await api()[":shareId"].resend.$post({ param: { ...t.ws, shareId: none.id }, json: {} }),
      400,
    );
    expect(empty.issues[0]!.code).toBe("no_recipients");
    await okBody(await revoke(s.id));
    const inactive = await expectError(await resend.$post({ param: p, json: {} }), 400);
    expect([inactive.issues[0]!.code, inactive.details.status]).toEqual([
      "share_not_active",
      "revoked",
    ]);
  });
});
