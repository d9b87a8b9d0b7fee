import fs from "node:fs";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StoredZipReader } from "@/browser/zip-reader";
import {
  SHARE_PASSWORD_FREE_TRIES,
  SHARE_PASSWORD_TARGET_CEILING,
  SHARE_PASSWORD_WINDOW_SECONDS,
} from "@/contract/rules";
import { SHARE_ACCESS_HEADER } from "@/contract/share-public";
import type { CreateShareBody } from "@/contract/shares";
import { ManualClock } from "@/server/lib/clock";
import { type NodeTest, sha256Hex, startNodeTest } from "@/server/node/node-testing";
import { diskBlobs } from "@/server/testing/disk-blobs";
import { expectBody, expectError, okBody } from "@/server/testing/expect-body";
import { publicSharesRouter } from "./public.index";
import { sharesRouter } from "./shares.index";

let n: NodeTest;
let clock: ManualClock;
const DAY = 86_400_000;
const REEL = "reel one, as shared";

beforeEach(async () => {
  clock = new ManualClock(Date.parse("2026-06-01T12:00:00Z"));
  // Trusting X-Forwarded-For lets a test speak from many addresses.
  n = await startNodeTest({ clock, config: { trustProxy: true } });
  await n.t.deps.files.writeFile(n.t.workspaceId, "Deliveries/reel1.mov", REEL);
  await n.t.deps.files.writeFile(n.t.workspaceId, "Deliveries/notes.txt", "notes");
});
afterEach(() => n.close());

const shares = () => n.t.client(sharesRouter).workspaces[":workspaceId"].shares;
const pub = () => n.t.client(publicSharesRouter, { key: null }).public.shares[":token"];
const headers = (access?: string): { headers: Record<string, string> } => ({
  headers: access ? { [SHARE_ACCESS_HEADER]: access } : {},
});
const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);

async function share(over: Partial<CreateShareBody> = {}) {
  const s = await expectBody(
    await shares().$post({
      param: n.t.ws,
      json: { paths: ["Deliveries"], recipients: ["ana@example.com"], openLink: true, ...over },
    }),
    201,
  );
  return { ...s, plain: tokenOf(s.url ?? ""), personal: tokenOf(s.recipientLinks[0]!.url) };
}
const open = (token: string, access?: string) => pub().$get({ param: { token } }, headers(access));
const unlock = (token: string, password: string, from?: string) =>
  pub().unlock.$post(
    { param: { token }, json: { password } },
    { headers: from ? { "X-Forwarded-For": from } : {} },
  );
const start = (token: string, paths: string[], access?: string) =>
  pub().downloads.$post({ param: { token }, json: { paths } }, headers(access));
const complete = (
  token: string,
  transferId: string,
  files: { path: string; sha256: string | null }[],
  access?: string,
) =>
  pub().downloads[":transferId"].complete.$post(
    { param: { token, transferId }, json: { files } },
    headers(access),
  );
const receipt = async (shareId: string) =>
  await okBody(await shares()[":shareId"].receipt.$get({ param: { ...n.t.ws, shareId } }));

/**
 * The node counts what it served once the file's stream has ended, a moment after the client
 * may have read the last byte: wait for that, as the page's report retries on `not_served`.
 */
async function servedAll(transferId: string) {
  const row = () =>
    n.t.deps.db
      .prepare("SELECT bytes_served, bytes_total FROM transfers WHERE id = ?")
      .get(transferId) as { bytes_served: number; bytes_total: number };
  await expect.poll(() => row().bytes_served).toBeGreaterThanOrEqual(row().bytes_total);
}

/** Starts a download, fetches each file from the node and hashes what arrived, as an engine does. */
async function download(token: string, paths: string[], access?: string) {
  const { transferId, transferSpec } = await expectBody(await start(token, paths, access), 201);
  const files = [];
  for (const path of paths) {
    const res = await n.download(transferSpec.token, path);
    expect(res.status).toBe(200);
    files.push({ path, sha256: sha256Hex(Buffer.from(await res.arrayBuffer())) });
  }
  await servedAll(transferId);
  return { transferId, transferSpec, files };
}

const fetchZip = (spec: { token: string }) =>
  fetch(`${n.base}/zip`, { headers: { Authorization: `Bearer ${spec.token}` } });

const ZIP_SIZES: Record<string, number> = { "notes.txt": 5, "reel1.mov": REEL.length };

/** Each entry of a ZIP response with the SHA-256 of its bytes, read as the recipient page does. */
async function zipEntries(res: Response) {
  const out: { name: string; sha256: string }[] = [];
  let parts: Uint8Array[] = [];
  const reader = new StoredZipReader(
    {
      start: () => {
        parts = [];
      },
      data: (bytes) => parts.push(bytes.slice()),
      end: (name) => out.push({ name, sha256: sha256Hex(Buffer.concat(parts)) }),
    },
    (name) => ZIP_SIZES[name],
  );
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) reader.push(chunk);
  reader.finish();
  return out;
}

describe("opening a link", () => {
  it("shows the share, its files as shared, and counts a view per visit", async () => {
    const s = await share({ title: "Cut", message: "Final cut" });
    await n.t.deps.files.writeFile(n.t.workspaceId, "Deliveries/reel1.mov", "changed later");
    const page = await okBody(await open(s.personal));
    expect(page).toMatchObject({
      title: "Cut",
      message: "Final cut",
      status: "active",
      passwordRequired: false,
      personal: true,
      fileCount: 2,
    });
    expect(page.files).toEqual([
      { path: "Deliveries/notes.txt", size: 5, mime: expect.any(String) },
      { path: "Deliveries/reel1.mov", size: REEL.length, mime: expect.any(String) },
    ]);
    const r = await receipt(s.id);
    expect(r.recipients[0]!.viewed).toBe(true);
    expect(r.anonymous.views).toBe(0);
    await okBody(await open(s.plain));
    expect((await receipt(s.id)).anonymous.views).toBe(1);
  });

  it("refuses an unknown token with 404, and needs no API key", async () => {
    const e = await expectError(await open("A".repeat(22)), 404);
    expect(e.details).toMatchObject({ reason: "unknown_link" });
  });

  it("refuses the plain token of a share made without an open link, like an unknown link", async () => {
    const s = await share({ openLink: false });
    const plain = n.t.deps.db
      .prepare("SELECT link_token FROM shares WHERE id = ?")
      .pluck()
      .get(s.id) as string;
    const e = await expectError(await open(plain), 404);
    expect(e.details).toMatchObject({ reason: "unknown_link" });
    await expectError(await start(plain, ["Deliveries/notes.txt"]), 404);
    await okBody(await open(s.personal));
  });

  it("says why a share is not open: expired, revoked, exhausted", async () => {
    const expired = await share({ expiresInDays: 1 });
    const revoked = await share();
    const exhausted = await share({ maxDownloads: 1 });
    await expectBody(
      await shares()[":shareId"].$delete({ param: { ...n.t.ws, shareId: revoked.id } }),
      200,
    );
    const d = await download(exhausted.plain, ["Deliveries/notes.txt"]);
    await okBody(await complete(exhausted.plain, d.transferId, d.files));
    clock.advance(DAY + 1);
    for (const [s, reason] of [
      [expired, "share_expired"],
      [revoked, "share_revoked"],
      [exhausted, "share_exhausted"],
    ] as const) {
      const e = await expectError(await open(s.plain), 403);
      expect(e.details).toMatchObject({ reason });
      await expectError(await start(s.plain, ["Deliveries/notes.txt"]), 403);
    }
  });
});

describe("the password", () => {
  it("hides the files until unlocked; a wrong one is refused and logged, the right one unlocks", async () => {
    const s = await share({ password: "correct horse" });
    const locked = await okBody(await open(s.personal));
    expect(locked).toMatchObject({ passwordRequired: true, files: null });
    const refusedStart = await expectError(await start(s.personal, ["Deliveries/notes.txt"]), 403);
    expect(refusedStart.details).toMatchObject({ reason: "password_required" });

    const wrong = await expectError(await unlock(s.personal, "wrong horse"), 403);
    expect(wrong.details).toMatchObject({ reason: "wrong_password" });
    const { accessToken } = await okBody(await unlock(s.personal, "correct horse"));
    const page = await okBody(await open(s.personal, accessToken));
    expect(page.passwordRequired).toBe(false);
    expect(page.files).toHaveLength(2);
    // The token opens this link only, and not after it expires.
    expect((await okBody(await open(s.plain, accessToken))).passwordRequired).toBe(true);
    clock.advance(2 * 60 * 60 * 1000 + 1);
    expect((await okBody(await open(s.personal, accessToken))).passwordRequired).toBe(true);
    expect((await receipt(s.id)).timeline.map((e) => e.type)).toContain("password_failed");
  });

  it("slows repeated wrong tries down, even for the right password", async () => {
    const s = await share({ password: "correct horse" });
    for (let i = 0; i < 5; i++) await expectError(await unlock(s.plain, "nope nope"), 403);
    const e = await expectError(await unlock(s.plain, "correct horse"), 429);
    expect(e.details).toMatchObject({ retryAfterSeconds: expect.any(Number) });
    clock.advance(e.details!.retryAfterSeconds * 1000);
    await okBody(await unlock(s.plain, "correct horse"));
  });

  it("checks only the free tries of 60 guesses sent at once, and refuses the right one among them", async () => {
    const s = await share({ password: "correct horse" });
    const guesses = Array.from({ length: 59 }, (_, i) => `wrong guess ${i}`);
    const answers = await Promise.all(
      [...guesses, "correct horse"].map((p) => unlock(s.plain, p, "198.51.100.7")),
    );
    const statuses = answers.map((r) => r.status);
    // Each 403 is one password checked and found wrong; every other try was refused unchecked.
    expect(statuses.filter((x) => x === 403)).toHaveLength(SHARE_PASSWORD_FREE_TRIES);
    expect(statuses.filter((x) => x === 429)).toHaveLength(60 - SHARE_PASSWORD_FREE_TRIES);
    expect(statuses.at(-1)).toBe(429);
    const slowed = answers.at(-1)!;
    expect(Number(slowed.headers.get("Retry-After"))).toBeGreaterThan(0);
    const e = await expectError(await unlock(s.plain, "correct horse", "198.51.100.7"), 429);
    expect(e.details).toMatchObject({ per: "address", limit: SHARE_PASSWORD_FREE_TRIES });
    // Another address is not held up by this one.
    await okBody(await unlock(s.plain, "correct horse", "203.0.113.5"));
  });

  it("holds one share to its ceiling of wrong tries across addresses", async () => {
    const s = await share({ password: "correct horse" });
    const tries = Array.from({ length: 20 }, (_, a) =>
      Array.from({ length: 5 }, (_, i) => unlock(s.plain, `guess ${a}-${i}`, `192.0.2.${a + 1}`)),
    ).flat();
    const statuses = (await Promise.all(tries)).map((r) => r.status);
    expect(statuses.filter((x) => x === 403)).toHaveLength(SHARE_PASSWORD_TARGET_CEILING);
    expect(statuses.filter((x) => x === 429)).toHaveLength(100 - SHARE_PASSWORD_TARGET_CEILING);
    // The share is shut to every address until its wrong tries leave the window, right or not.
    const shut = await unlock(s.personal, "correct horse", "203.0.113.9");
    const e = await expectError(shut, 429);
    expect(e.details).toMatchObject({ per: "target", limit: SHARE_PASSWORD_TARGET_CEILING });
    expect(shut.headers.get("Retry-After")).toBe(String(e.details!.retryAfterSeconds));
    // Another share is not.
    const other = await share({ password: "correct horse" });
    await okBody(await unlock(other.plain, "correct horse", "203.0.113.9"));
    clock.advance(SHARE_PASSWORD_WINDOW_SECONDS * 1000);
    await okBody(await unlock(s.plain, "correct horse", "203.0.113.9"));
  });
});

describe("downloads", () => {
  it("serves the snapshot through the node and records a verified download on the receipt", async () => {
    const s = await share();
    await n.t.deps.files.writeFile(n.t.workspaceId, "Deliveries/reel1.mov", "changed later");
    const d = await download(s.personal, ["Deliveries/reel1.mov"]);
    expect(d.files[0]!.sha256).toBe(sha256Hex(REEL));
    expect(d.transferSpec).toMatchObject({ client: "share", direction: "receive" });
    const ranged = await n.download(d.transferSpec.token, "Deliveries/reel1.mov", {
      Range: "bytes=0-3",
    });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe("reel");
    const done = await okBody(await complete(s.personal, d.transferId, d.files));
    expect(done).toMatchObject({ verified: true, unverifiedFiles: [] });
    const r = await receipt(s.id);
    expect(r.downloads).toHaveLength(1);
    expect(r.downloads[0]).toMatchObject({ verified: true, who: { email: "ana@example.com" } });
    // Reported once only; the transfer ended, so its token no longer serves.
    await expectError(await complete(s.personal, d.transferId, d.files), 400);
    expect((await n.download(d.transferSpec.token, "Deliveries/reel1.mov")).status).toBe(401);
  });

  it("refuses a path that is not in the share, at the API and at the node", async () => {
    const s = await share({ paths: ["Deliveries/notes.txt"] });
    const e = await expectError(await start(s.plain, ["Deliveries/reel1.mov"]), 400);
    expect(e.details?.issues?.[0]?.code).toBe("not_in_share");
    const { transferSpec } = await expectBody(await start(s.plain, ["Deliveries/notes.txt"]), 201);
    const res = await n.download(transferSpec.token, "Deliveries/reel1.mov");
    expect(res.status).toBe(403);
    // The transfer's ZIP carries the transfer's files and no other.
    const zip = await fetch(`${n.base}/zip?token=${transferSpec.token}`);
    expect((await zipEntries(zip)).map((e) => e.name)).toEqual(["notes.txt"]);
  });

  it("serves a download of several files as one ZIP of the snapshot, verified from its entries' hashes", async () => {
    const s = await share({ maxDownloads: 1 });
    await n.t.deps.files.writeFile(n.t.workspaceId, "Deliveries/reel1.mov", "changed later");
    const paths = ["Deliveries/notes.txt", "Deliveries/reel1.mov"];
    const { transferId, transferSpec } = await expectBody(await start(s.personal, paths), 201);
    const res = await fetchZip(transferSpec);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toContain('filename="Deliveries.zip"');
    const entries = await zipEntries(res);
    expect(entries).toEqual([
      { name: "notes.txt", sha256: sha256Hex("notes") },
      { name: "reel1.mov", sha256: sha256Hex(REEL) },
    ]);
    await servedAll(transferId);
    const files = paths.map((path, i) => ({ path, sha256: entries[i]!.sha256 }));
    expect(await okBody(await complete(s.personal, transferId, files))).toMatchObject({
      verified: true,
    });
    const r = await receipt(s.id);
    expect(r.downloads[0]).toMatchObject({ verified: true, who: { email: "ana@example.com" } });
    expect(r.recipients[0]).toMatchObject({ downloaded: true, verified: true });
    // Counted once toward maxDownloads: the share is used up, and its ZIP no longer served.
    const used = await expectError(await start(s.personal, paths), 403);
    expect(used.details).toMatchObject({ reason: "share_exhausted" });
    const late = await fetchZip(transferSpec);
    expect(late.status).toBe(401);
  });

  it("refuses a share's ZIP once the share is revoked or expired", async () => {
    const s = await share({ expiresInDays: 1 });
    const paths = ["Deliveries/notes.txt", "Deliveries/reel1.mov"];
    clock.advance(DAY - 5 * 60_000);
    const first = await expectBody(await start(s.plain, paths), 201);
    clock.advance(10 * 60_000);
    const expired = await fetchZip(first.transferSpec);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { error: { details: unknown } }).error.details).toMatchObject(
      { reason: "share_expired" },
    );
    const other = await share();
    const second = await expectBody(await start(other.plain, paths), 201);
    await okBody(await shares()[":shareId"].$delete({ param: { ...n.t.ws, shareId: other.id } }));
    const revoked = await fetchZip(second.transferSpec);
    expect(revoked.status).toBe(403);
  });

  it("enforces maxDownloads and expiry at the node, for a download already started", async () => {
    const s = await share({ maxDownloads: 1, expiresInDays: 1 });
    const first = await expectBody(await start(s.plain, ["Deliveries/notes.txt"]), 201);
    const second = await expectBody(await start(s.plain, ["Deliveries/notes.txt"]), 201);
    const bytes = await (await n.download(first.transferSpec.token, "Deliveries/notes.txt")).text();
    await servedAll(first.transferId);
    await okBody(
      await complete(s.plain, first.transferId, [
        { path: "Deliveries/notes.txt", sha256: sha256Hex(bytes) },
      ]),
    );
    const exhausted = await n.download(second.transferSpec.token, "Deliveries/notes.txt");
    expect(exhausted.status).toBe(403);
    expect(
      ((await exhausted.json()) as { error: { details: unknown } }).error.details,
    ).toMatchObject({ reason: "share_exhausted" });
    await expectBody(
      await shares()[":shareId"].$patch({
        param: { ...n.t.ws, shareId: s.id },
        json: { maxDownloads: null },
      }),
      200,
    );
    // Started a few minutes before the share expires, fetched a few minutes after.
    clock.advance(DAY - 5 * 60_000);
    const late = await expectBody(await start(s.plain, ["Deliveries/notes.txt"]), 201);
    clock.advance(10 * 60_000);
    const expired = await n.download(late.transferSpec.token, "Deliveries/notes.txt");
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { error: { details: unknown } }).error.details).toMatchObject(
      { reason: "share_expired" },
    );
  });

  it("stops serving a started download once the share is revoked", async () => {
    const s = await share();
    const d = await expectBody(await start(s.plain, ["Deliveries/notes.txt"]), 201);
    await expectBody(
      await shares()[":shareId"].$delete({ param: { ...n.t.ws, shareId: s.id } }),
      200,
    );
    const res = await n.download(d.transferSpec.token, "Deliveries/notes.txt");
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { details: unknown } }).error.details).toMatchObject({
      reason: "share_revoked",
    });
  });

  it("reports a download of bytes altered on disk as unverified", async () => {
    const s = await share();
    const blob = diskBlobs(n.t.deps.files).pathOf(sha256Hex(REEL));
    fs.chmodSync(blob, 0o644);
    fs.writeFileSync(blob, "reel ONE, as shared");
    const d = await download(s.plain, ["Deliveries/reel1.mov"]);
    const done = await okBody(await complete(s.plain, d.transferId, d.files));
    expect(done).toMatchObject({ verified: false, unverifiedFiles: ["Deliveries/reel1.mov"] });
    const r = await receipt(s.id);
    expect(r.integrity).toBe("none");
    expect(r.downloads[0]!.verified).toBe(false);
  });
});

describe("comments", () => {
  it("a personal link comments as its recipient, the plain link anonymously", async () => {
    const s = await share();
    const mine = await expectBody(
      await pub().comments.$post({ param: { token: s.personal }, json: { body: "Got it" } }),
      201,
    );
    expect(mine.author).toEqual({ kind: "recipient", name: null, email: "ana@example.com" });
    const anon = await expectBody(
      await pub().comments.$post({
        param: { token: s.plain },
        json: { body: "Thanks", name: "Bo" },
      }),
      201,
    );
    expect(anon.author).toEqual({ kind: "anonymous", name: "Bo", email: null });
    const page = await okBody(await pub().comments.$get({ param: { token: s.plain }, query: {} }));
    expect(page.items.map((c) => c.body)).toEqual(["Got it", "Thanks"]);
  });

  it("shows a recipient's address only to that recipient, not to other recipients or the plain link", async () => {
    const s = await share({ recipients: ["ana@example.com", "bo@example.com"] });
    const bo = tokenOf(s.recipientLinks.find((l) => l.email === "bo@example.com")!.url);
    await expectBody(
      await pub().comments.$post({ param: { token: s.personal }, json: { body: "Got it" } }),
      201,
    );
    const seenBy = async (token: string) =>
      (await okBody(await pub().comments.$get({ param: { token }, query: {} }))).items[0]!.author;
    expect(await seenBy(s.personal)).toEqual({
      kind: "recipient",
      name: null,
      email: "ana@example.com",
    });
    expect(await seenBy(bo)).toEqual({ kind: "recipient", name: null, email: null });
    expect(await seenBy(s.plain)).toEqual({ kind: "recipient", name: null, email: null });
  });

  it("needs the password's access like the files", async () => {
    const s = await share({ password: "correct horse" });
    await expectError(await pub().comments.$get({ param: { token: s.plain }, query: {} }), 403);
  });
});

describe("thumbnails", () => {
  it("renders a shared image as a small JPEG, with the access token in the query", async () => {
    const png = await sharp({
      create: { width: 800, height: 400, channels: 3, background: "#336699" },
    })
      .png()
      .toBuffer();
    await n.t.deps.files.writeFile(n.t.workspaceId, "Deliveries/still.png", png);
    const s = await share({ password: "correct horse" });
    const thumb = (token: string, path: string, access?: string) =>
      pub().thumbnail.$get({ param: { token }, query: { path, ...(access ? { access } : {}) } });
    const locked = await expectError(await thumb(s.plain, "Deliveries/still.png"), 403);
    expect(locked.details).toMatchObject({ reason: "password_required" });
    const { accessToken } = await okBody(await unlock(s.plain, "correct horse"));
    const res = await thumb(s.plain, "Deliveries/still.png", accessToken);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/jpeg");
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([320, 160]);
    const text = await expectError(await thumb(s.plain, "Deliveries/notes.txt", accessToken), 400);
    expect(text.details?.issues?.[0]?.code).toBe("no_preview");
    await n.t.deps.files.writeFile(n.t.workspaceId, "Deliveries/broken.png", "not an image");
    const broken = await share({ paths: ["Deliveries/broken.png"] });
    const bad = await expectError(await thumb(broken.plain, "Deliveries/broken.png"), 400);
    expect(bad.issues[0]).toMatchObject({
      code: "no_preview",
      message: expect.stringContaining("could not be read"),
    });
  });
});
