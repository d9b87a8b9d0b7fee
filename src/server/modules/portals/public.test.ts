import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SHARE_PASSWORD_FREE_TRIES, SHARE_PASSWORD_TARGET_CEILING } from "@/contract/rules";
import { ManualClock } from "@/server/lib/clock";
import { byPath } from "@/server/modules/files/files.repository";
import { type NodeTest, sha256Hex, startNodeTest } from "@/server/node/node-testing";
import { expectBody, expectError } from "@/server/testing/expect-body";
import { sharesRouter } from "../shares/shares.index";
import { portalHelpers } from "./portal-testing";
import { portalsRouter } from "./portals.index";

let n: NodeTest;
let clock: ManualClock;

beforeEach(async () => {
  // The node's tus layer measures upload expiry by the wall clock: start from now.
  clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000);
  // Trusting X-Forwarded-For lets a test speak from many addresses.
  n = await startNodeTest({ clock, config: { trustProxy: true } });
});
afterEach(() => n.close());

const { admin, pub, access, bearer, portal, start, send } = portalHelpers(() => n);
const eventsOf = (type: string) =>
  n.t.deps.db
    .prepare("SELECT data FROM events WHERE type = ? ORDER BY seq")
    .pluck()
    .all(type)
    .map((d) => JSON.parse(d as string));

describe("the portal page's API", () => {
  it("opens a portal, takes an upload into a folder of its own, and reports it everywhere", async () => {
    const p = await portal({
      requireEmail: true,
      notifyOnUpload: true,
      fields: [{ key: "shoot_day", label: "Shoot day", required: true }],
      rules: { allowedExtensions: ["txt"], maxFiles: 3 },
    });
    const page = await expectBody(await pub().$get({ param: { slug: p.slug } }), 200);
    expect(page).toMatchObject({
      title: "Dailies",
      state: "open",
      passwordRequired: false,
      requireEmail: true,
      rules: { allowedExtensions: ["txt"], maxFiles: 3, namePattern: null },
    });
    const { started, done } = await send(
      p.slug,
      { "a.txt": "first", "notes/b.txt": "second" },
      { senderEmail: "ana@example.com", senderName: "Ana", fields: { shoot_day: "2" } },
    );
    const confirmation = await expectBody(done, 200);
    expect(confirmation).toMatchObject({
      uploadId: started.uploadId,
      fileCount: 2,
      bytes: 11,
      senderEmail: "ana@example.com",
      files: [
        { path: "a.txt", size: 5, sha256: sha256Hex("first") },
        { path: "notes/b.txt", size: 6, sha256: sha256Hex("second") },
      ],
    });
    const folder = started.transferSpec.destinationRoot;
    const stamp = new Date(clock.now())
      .toISOString()
      .slice(0, 16)
      .replace("T", " ")
      .replace(":", "");
    expect(folder).toMatch(new RegExp(`^Incoming/${stamp} Ana [a-z0-9]{6}$`));
    const landed = n.t.deps.files.get(n.t.workspaceId, `${folder}/notes/b.txt`);
    expect(landed.size).toBe(6);
    const detail = await expectBody(
      await admin().portals[":portalId"].$get({ param: { ...n.t.ws, portalId: p.id } }),
      200,
    );
    expect(detail).toMatchObject({ uploadCount: 1, bytesReceived: 11, awaitingReview: 1 });
    expect(detail.uploads[0]).toMatchObject({
      status: "received",
      senderEmail: "ana@example.com",
      fields: { shoot_day: "2" },
      folderPath: folder,
      fileCount: 2,
      bytesDone: 11,
      specCheck: { status: "not_required" },
      files: [
        { path: `${folder}/a.txt`, mime: "text/plain" },
        { path: `${folder}/notes/b.txt`, mime: "text/plain" },
      ],
    });
    expect(eventsOf("portal.upload.completed")).toEqual([
      {
        portalId: p.id,
        uploadId: started.uploadId,
        folder,
        files: 2,
        bytes: 11,
        sender: { email: "ana@example.com", name: "Ana" },
      },
    ]);
    const outbox = await expectBody(
      await n.t
        .client(sharesRouter)
        .workspaces[":workspaceId"].outbox.$get({ param: n.t.ws, query: { portalId: p.id } }),
      200,
    );
    const to = outbox.items.map((m) => m.to);
    expect(to).toContain("ana@example.com"); // the sender's confirmation
    expect(outbox.items.find((m) => m.to === "ana@example.com")!.text).toContain(
      sha256Hex("first"),
    );
    expect(outbox.items.some((m) => m.subject.startsWith("New upload"))).toBe(true); // the admins
    // Reported again (the first answer was lost): the same confirmation, nothing counted twice.
    const again = await pub().uploads[":uploadId"].complete.$post(
      { param: { slug: p.slug, uploadId: started.uploadId } },
      bearer(started.transferSpec.token),
    );
    expect(await expectBody(again, 200)).toEqual(confirmation);
    expect(eventsOf("portal.upload.completed")).toHaveLength(1);
    const counted = await expectBody(
      await admin().portals[":portalId"].$get({ param: { ...n.t.ws, portalId: p.id } }),
      200,
    );
    expect(counted.uploadCount).toBe(1);
    // Another upload's token, or none, opens nothing.
    const other = await expectBody(
      await start(p.slug, {
        senderEmail: "b@example.com",
        fields: { shoot_day: "3" },
        files: [{ path: "c.txt", size: 1 }],
      }),
      201,
    );
    const wrong = await pub().uploads[":uploadId"].complete.$post(
      { param: { slug: p.slug, uploadId: started.uploadId } },
      bearer(other.transferSpec.token),
    );
    expect((await expectError(wrong, 403)).details.reason).toBe("other_upload");
    const none = await pub().uploads[":uploadId"].complete.$post({
      param: { slug: p.slug, uploadId: started.uploadId },
    });
    expect((await expectError(none, 401)).code).toBe("unauthenticated");
  });

  it("refuses every rule and required detail before a byte is sent", async () => {
    const p = await portal({
      requireEmail: true,
      maxBytesPerUpload: 10,
      fields: [{ key: "take", label: "Take", required: true }],
      rules: { allowedExtensions: ["mov"], maxFiles: 2, namePattern: "[A-Z]+_[0-9]+\\.mov" },
    });
    const e = await expectError(
      await start(p.slug, {
        fields: { other: "x" },
        files: [
          { path: "clip.mp4", size: 1 },
          { path: "lower_1.mov", size: 1 },
          { path: "BIG_1.mov", size: 11 },
        ],
      }),
      400,
    );
    expect(e.issues.map((i) => [i.field, i.code])).toEqual([
      ["senderEmail", "email_required"],
      ["fields.take", "required"],
      ["fields.other", "unknown_field"],
      ["files.0", "extension_not_allowed"],
      ["files.1", "name_not_allowed"],
      ["files.2", "too_large"],
      ["files", "too_many_files"],
    ]);
    expect(
      (await expectError(await start(p.slug, { files: [{ path: "../x.mov", size: 1 }] }), 400))
        .code,
    ).toBe("path_rejected");
    // A file and a folder of one name cannot both land: the later path is named.
    const clash = await expectError(
      await start(p.slug, {
        senderEmail: "ana@example.com",
        fields: { take: "1" },
        files: [
          { path: "A_1.mov", size: 1 },
          { path: "A_1.mov/B_2.mov", size: 1 },
        ],
      }),
      400,
    );
    expect(clash.code).toBe("validation_failed");
    expect(clash.issues.map((i) => [i.field, i.code])).toEqual([
      ["files.1.path", "file_in_the_way"],
    ]);
    expect(clash.message).toContain("A_1.mov/B_2.mov");
    expect(n.t.deps.db.prepare("SELECT count(*) FROM transfers").pluck().get()).toBe(0);
    expect(n.t.deps.db.prepare("SELECT count(*) FROM portal_uploads").pluck().get()).toBe(0);
  });

  it("the node refuses a file outside the rules, and any file once the portal is paused", async () => {
    const p = await portal({ rules: { allowedExtensions: ["txt"] } });
    const started = await expectBody(
      await start(p.slug, {
        files: [
          { path: "d/a.txt", size: 1 },
          { path: "d/b.txt", size: 1 },
        ],
      }),
      201,
    );
    const { token, destinationRoot } = started.transferSpec;
    // A client that ignores the page's checks: a file it did not declare, of another type.
    const sneaky = await n.create(token, { path: `${destinationRoot}/d/a.exe`, length: 1 });
    expect(sneaky.status, await sneaky.clone().text()).toBe(403);
    expect(await sneaky.text()).toContain("outside_transfer");
    // Rules changed since the start hold for the files still to come.
    await admin().portals[":portalId"].$patch({
      param: { ...n.t.ws, portalId: p.id },
      json: { rules: { allowedExtensions: ["mov"] } },
    });
    const ruled = await n.create(token, { path: `${destinationRoot}/d/b.txt`, length: 1 });
    expect(ruled.status, await ruled.clone().text()).toBe(400);
    expect(await ruled.text()).toContain("extension_not_allowed");
    await admin().portals[":portalId"].$patch({
      param: { ...n.t.ws, portalId: p.id },
      json: { status: "paused" },
    });
    const paused = await n.create(token, { path: `${destinationRoot}/d/a.txt`, length: 1 });
    expect(paused.status).toBe(403);
    expect(await paused.text()).toContain("portal_paused");
  });

  it("asks for the password, slows down guessing, and closes paused, expired and revoked portals", async () => {
    const p = await portal({ password: "open sesame", expiresInDays: 2 });
    expect(
      (await expectBody(await pub().$get({ param: { slug: p.slug } }), 200)).passwordRequired,
    ).toBe(true);
    const locked = await expectError(await start(p.slug, { files: [{ path: "a", size: 1 }] }), 403);
    expect(locked.details.reason).toBe("password_required");
    for (let i = 0; i < 5; i++) {
      const wrong = await expectError(
        await pub().unlock.$post({ param: { slug: p.slug }, json: { password: "guess" } }),
        403,
      );
      expect(wrong.details.reason).toBe("wrong_password");
    }
    const slowed = await expectError(
      await pub().unlock.$post({ param: { slug: p.slug }, json: { password: "open sesame" } }),
      429,
    );
    expect(slowed.details.retryAfterSeconds).toBeGreaterThan(0);
    clock.advance(2000);
    const { accessToken } = await expectBody(
      await pub().unlock.$post({ param: { slug: p.slug }, json: { password: "open sesame" } }),
      200,
    );
    expect(
      (await expectBody(await pub().$get({ param: { slug: p.slug } }, access(accessToken)), 200))
        .passwordRequired,
    ).toBe(false);
    await expectBody(await start(p.slug, { files: [{ path: "a", size: 1 }] }, accessToken), 201);

    const param = { ...n.t.ws, portalId: p.id };
    await admin().portals[":portalId"].$patch({ param, json: { status: "paused" } });
    const stateOf = async () =>
      (await expectBody(await pub().$get({ param: { slug: p.slug } }), 200)).state;
    expect(await stateOf()).toBe("paused");
    expect(
      (
        await expectError(
          await start(p.slug, { files: [{ path: "a", size: 1 }] }, accessToken),
          403,
        )
      ).details.reason,
    ).toBe("portal_paused");
    await admin().portals[":portalId"].$patch({ param, json: { status: "active" } });
    clock.advance(3 * 86_400_000);
    expect(await stateOf()).toBe("expired");
    await admin().portals[":portalId"].$delete({ param });
    expect(await stateOf()).toBe("revoked");
    expect(
      (await expectError(await pub().$get({ param: { slug: "no-such-portal" } }), 404)).details
        .reason,
    ).toBe("unknown_portal");
  });

  it("checks only the free tries of guesses sent at once, and at most its ceiling across addresses", async () => {
    const p = await portal({ password: "open sesame" });
    const unlock = (password: string, from: string) =>
      pub().unlock.$post(
        { param: { slug: p.slug }, json: { password } },
        { headers: { "X-Forwarded-For": from } },
      );
    const burst = await Promise.all(
      [...Array.from({ length: 59 }, (_, i) => `guess ${i}`), "open sesame"].map((pw) =>
        unlock(pw, "198.51.100.7"),
      ),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((x) => x === 403)).toHaveLength(SHARE_PASSWORD_FREE_TRIES);
    expect(statuses.filter((x) => x === 429)).toHaveLength(60 - SHARE_PASSWORD_FREE_TRIES);
    expect(burst.at(-1)!.headers.get("Retry-After")).toBeTruthy();

    const spread = await Promise.all(
      Array.from({ length: 20 }, (_, a) =>
        Array.from({ length: 5 }, (_, i) => unlock(`guess ${a}-${i}`, `192.0.2.${a + 1}`)),
      ).flat(),
    );
    const wrong = spread.filter((r) => r.status === 403).length;
    expect(wrong + SHARE_PASSWORD_FREE_TRIES).toBe(SHARE_PASSWORD_TARGET_CEILING);
    const shut = await expectError(await unlock("open sesame", "203.0.113.9"), 429);
    expect(shut.details).toMatchObject({ per: "target" });
  });
});

describe("review", () => {
  it("approves, rejects with a note and holds; records who and when; moves approved uploads", async () => {
    const p = await portal({ approvedPath: "Approved" });
    const one = await send(p.slug, { "a.txt": "one" }, { senderName: "Ana" });
    const two = await send(p.slug, { "b.txt": "two" }, { senderName: "Ben" });
    const review = (
      uploadId: string,
      json: { decision: "approved" | "rejected" | "pending"; note?: string },
    ) =>
      admin().portals[":portalId"].uploads[":uploadId"].review.$post({
        param: { ...n.t.ws, portalId: p.id, uploadId },
        json,
      });
    const rejected = await expectBody(
      await review(two.started.uploadId, { decision: "rejected", note: "Wrong frame rate" }),
      200,
    );
    expect(rejected).toMatchObject({
      status: "rejected",
      reviewNote: "Wrong frame rate",
      reviewedAt: new Date(clock.now()).toISOString(),
      reviewedBy: { id: n.t.adminId },
    });
    const approved = await expectBody(
      await review(one.started.uploadId, { decision: "approved" }),
      200,
    );
    expect(approved.folderPath).toMatch(/^Approved\/\d{4}-\d\d-\d\d \d{4} Ana /);
    expect(approved.files.map((f) => f.path)).toEqual([`${approved.folderPath}/a.txt`]);
    await n.t.deps.jobs.runDue();
    await expect
      .poll(async () => {
        await n.t.deps.jobs.runDue();
        return byPath(n.t.deps.db, n.t.workspaceId, `${approved.folderPath}/a.txt`)?.size;
      })
      .toBe(3);
    expect(
      eventsOf("portal.upload.reviewed").map((e) => [e.uploadId, e.decision, e.previousStatus]),
    ).toEqual([
      [two.started.uploadId, "rejected", "received"],
      [one.started.uploadId, "approved", "received"],
    ]);
    const held = await expectBody(await review(two.started.uploadId, { decision: "pending" }), 200);
    expect(held).toMatchObject({ status: "pending", reviewNote: null });

    const queue = n.t.client(portalsRouter).workspaces[":workspaceId"]["portal-uploads"];
    const awaiting = await expectBody(
      await queue.$get({ param: n.t.ws, query: { status: "awaiting" } }),
      200,
    );
    expect(awaiting.items.map((u) => u.id)).toEqual([two.started.uploadId]);
    expect(awaiting.total).toBe(1);
    const all = await expectBody(
      await queue.$get({ param: n.t.ws, query: { portalId: p.id, limit: "1" } }),
      200,
    );
    expect(all.total).toBe(2);
    expect(all.next).toBe(all.items[0]!.id);

    const bad = await expectError(
      await review(one.started.uploadId, { decision: "maybe" as never }),
      400,
    );
    expect(bad.code).toBe("validation_failed");
    const longNote = await expectError(
      await review(one.started.uploadId, { decision: "rejected", note: "n".repeat(501) }),
      400,
    );
    expect(longNote.issues[0]!.field).toBe("note");
    const reader = n.t.keyWith(["receipts:read"]);
    const refused = await n.t
      .client(portalsRouter, { key: reader })
      .workspaces[":workspaceId"].portals[":portalId"].uploads[":uploadId"].review.$post({
        param: { ...n.t.ws, portalId: p.id, uploadId: one.started.uploadId },
        json: { decision: "approved" },
      });
    expect(refused.status).toBe(403);
  });

  it("without an approved folder, approving leaves the upload where it landed", async () => {
    const p = await portal();
    expect(p.approvedPath).toBeNull();
    const one = await send(p.slug, { "a.txt": "one" }, { senderName: "Ana" });
    const approved = await expectBody(
      await admin().portals[":portalId"].uploads[":uploadId"].review.$post({
        param: { ...n.t.ws, portalId: p.id, uploadId: one.started.uploadId },
        json: { decision: "approved" },
      }),
      200,
    );
    expect(approved.folderPath).toBe(one.started.transferSpec.destinationRoot);
    expect(n.t.deps.db.prepare("SELECT count(*) FROM file_operations").pluck().get()).toBe(0);
  });

  it("an upload still arriving cannot be reviewed; a cancelled one fails", async () => {
    const p = await portal();
    const started = await expectBody(
      await start(p.slug, { files: [{ path: "a.txt", size: 3 }] }),
      201,
    );
    const review = await expectError(
      await admin().portals[":portalId"].uploads[":uploadId"].review.$post({
        param: { ...n.t.ws, portalId: p.id, uploadId: started.uploadId },
        json: { decision: "approved" },
      }),
      400,
    );
    expect(review.issues[0]!.code).toBe("not_received");
    const early = await expectError(
      await pub().uploads[":uploadId"].complete.$post(
        { param: { slug: p.slug, uploadId: started.uploadId } },
        bearer(started.transferSpec.token),
      ),
      400,
    );
    expect(early.issues[0]!.code).toBe("not_committed");
    const cancelled = await pub().uploads[":uploadId"].cancel.$post(
      { param: { slug: p.slug, uploadId: started.uploadId }, json: {} },
      bearer(started.transferSpec.token),
    );
    expect(cancelled.status).toBe(204);
    const detail = await expectBody(
      await admin().portals[":portalId"].$get({ param: { ...n.t.ws, portalId: p.id } }),
      200,
    );
    expect(detail.uploads[0]!.status).toBe("failed");
  });
});

describe("abandoned uploads", () => {
  it("an upload whose transfer can no longer resume is failed by the hourly sweep", async () => {
    const p = await portal();
    const started = await expectBody(
      await start(p.slug, { files: [{ path: "a.txt", size: 3 }] }),
      201,
    );
    const status = () =>
      n.t.deps.db
        .prepare("SELECT status FROM portal_uploads WHERE id = ?")
        .pluck()
        .get(started.uploadId);
    clock.advance(60 * 60 * 1000);
    await n.t.deps.jobs.runDue();
    expect(status()).toBe("uploading");
    clock.advance(8 * 86_400_000);
    await n.t.deps.jobs.runDue();
    expect(status()).toBe("failed");
  });
});

describe("the media spec", () => {
  it("flags a video that breaks the spec and passes one that meets it", async () => {
    const p = await portal({
      spec: { name: "MPEG-4 in MOV", containers: ["mov"], videoCodecs: ["mpeg4"] },
    });
    const dir = fs.mkdtempSync(path.join(n.t.dir, "media-"));
    const make = (name: string, codec: string) => {
      const out = path.join(dir, name);
      execFileSync("ffmpeg", [
        "-v",
        "error",
        "-f",
        "lavfi",
        "-i",
        "testsrc=size=64x48:rate=5:duration=1",
        "-c:v",
        codec,
        out,
      ]);
      return fs.readFileSync(out);
    };
    const good = await send(p.slug, { "good.mov": make("good.mov", "mpeg4") });
    const bad = await send(p.slug, { "bad.mp4": make("bad.mp4", "mpeg4"), "notes.txt": "n" });
    await expectBody(good.done, 200);
    await expectBody(bad.done, 200);
    await n.t.deps.jobs.runDue();
    const uploads = (
      await expectBody(
        await admin().portals[":portalId"].$get({ param: { ...n.t.ws, portalId: p.id } }),
        200,
      )
    ).uploads;
    const byId = (id: string) => uploads.find((u) => u.id === id)!;
    expect(byId(good.started.uploadId).specCheck).toMatchObject({
      status: "passed",
      problems: [],
      files: [{ videoCodecs: ["mpeg4"], width: 64, height: 48 }],
    });
    const flagged = byId(bad.started.uploadId).specCheck;
    expect(flagged.status).toBe("failed");
    expect(flagged.problems).toEqual([
      {
        path: expect.stringMatching(/bad\.mp4$/),
        message: expect.stringMatching(/^container .*expected mov/),
      },
    ]);
  });
});
