import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreateShareBody } from "@/contract/shares";
import { moveRows } from "@/server/db/pg/move-rows";
import { createDeps } from "@/server/deps";
import { testConfig } from "@/server/env";
import type { Caller } from "@/server/http/caller";
import { ApiError } from "@/server/lib/api-error";
import { ManualClock } from "@/server/lib/clock";
import { PgEventRecorder } from "@/server/modules/events/events.pg";
import { registerMailWorkers } from "@/server/modules/mail/mail.workers";
import { refusal } from "@/server/testing/engine-suites";
import { freshPgDatabase } from "@/server/testing/pg-database";
import { registerSharesWorkers } from "./shares.workers";
import type { ListSharesInput, SharesStore } from "./shares-store";
import { PgSharesStore } from "./shares-store.pg";
import { COMMENT, MEMBER, SEEDED, seedSqlite, sha, T0, WS } from "./shares-store.seed";

/** One engine's store over the seeded rows, and a portable SELECT on its database. */
interface Engine {
  store: SharesStore;
  rows(sql: string): Promise<unknown[]>;
}

const SMTP = "smtp://127.0.0.1:9";
const caller: Caller = { workspaceId: WS, memberId: MEMBER, keyId: null, origin: "https://c.test" };

function sqliteEngine(): () => Engine {
  let seeded: ReturnType<typeof seedSqlite>;
  let store: SharesStore;
  beforeAll(() => {
    seeded = seedSqlite();
    const config = testConfig(seeded.dir, { smtpUrl: SMTP });
    const deps = createDeps(config, { clock: new ManualClock(T0), db: seeded.db });
    registerSharesWorkers(deps);
    registerMailWorkers(deps);
    store = deps.sharesStore;
  });
  afterAll(() => seeded.close());
  return () => ({ store, rows: async (sql) => seeded.db.prepare(sql).all() });
}

/**
 * The same rows, moved from an identically seeded SQLite database (ids included), in a database
 * whose default collation is a language's (en-US): anything not held to COLLATE "C" would
 * compare or sort differently from SQLite there.
 */
function postgresEngine(): () => Engine {
  const pool = freshPgDatabase({ locale: "en-US" });
  let store: PgSharesStore;
  beforeAll(async () => {
    const source = seedSqlite();
    await moveRows(source.db, pool());
    source.close();
    const clock = new ManualClock(T0);
    const config = { publicUrl: null, smtpUrl: SMTP };
    store = new PgSharesStore(pool(), clock, new PgEventRecorder(clock), config);
  });
  return () => ({ store, rows: async (sql) => (await pool().query(sql)).rows });
}

/**
 * A transcript with its random parts (new ids, link tokens) named by order of appearance, so
 * two engines' transcripts compare exactly. Seeded ids are outside the id alphabet (an `i`).
 */
function stable(value: unknown) {
  const names = new Map<string, string>();
  const name = (s: string, kind: string) => {
    if (!names.has(s)) names.set(s, `<${kind}${names.size}>`);
    return names.get(s)!;
  };
  return JSON.parse(
    JSON.stringify(value)
      .replace(/\/s\/[A-Za-z0-9]{22,32}/g, (s) => `/s/${name(s, "token")}`)
      .replace(/\b[0-9a-hjkmnp-tv-z]{26}\b/g, (s) => name(s, "id")),
  );
}

const EVENTS = "SELECT type, data FROM events ORDER BY seq";
const JOBS = `SELECT kind, payload, unique_key, run_at, max_attempts, status FROM jobs
  WHERE kind IN ('shares.expire', 'shares.mail') ORDER BY run_at, id`;
const OUTBOX = `SELECT share_id, recipient_id, channel, to_address, subject, body, link, status, created_at
  FROM mail_outbox ORDER BY id`;
const BLOBS = "SELECT sha256, size, ref_count FROM blobs ORDER BY sha256";
const FILES_OF = (id: string) =>
  `SELECT idx, path, size, sha256, mime FROM share_files WHERE share_id = '${id}' ORDER BY idx`;
const CHANGES = `SELECT share_id, changed_at, expires_at, previous_expires_at, max_downloads, previous_max_downloads
  FROM share_changes ORDER BY id`;

const LISTS: Partial<ListSharesInput>[] = [
  {},
  { status: "active" },
  { status: "expired" },
  { status: "revoked" },
  { status: "exhausted" },
  { expiringWithinDays: 3 },
  { neverOpened: true },
  { recipient: "ana@example.com" },
  { verdict: "verified" },
  { limit: 2 },
  { limit: 2, cursor: SEEDED.personal },
  { limit: 3, cursor: SEEDED.active },
];
const list = (store: SharesStore, q: Partial<ListSharesInput>) =>
  store.listShares(caller, { limit: 50, ...q });

const body = (over: Partial<CreateShareBody>) =>
  ({ paths: ["Deliveries/cut"], expiresInDays: 7, recipients: [], notify: true, ...over }) as never;

describe.each([
  { engine: "SQLite", use: sqliteEngine },
  { engine: "PostgreSQL", use: postgresEngine },
])("the shares store on $engine", ({ use }) => {
  const open = use();

  it("lists newest first, filters by status, expiry, openings, recipient and verdict, and pages", async () => {
    const { store } = open();
    const ids = async (q: Partial<ListSharesInput>) => {
      const page = await list(store, q);
      return [page.items.map((s) => s.id.slice(-1)).join(""), page.next?.slice(-1) ?? null];
    };
    expect(await ids({})).toEqual(["7654321", null]);
    expect(await ids({ status: "active" })).toEqual(["7621", null]);
    expect(await ids({ status: "expired" })).toEqual(["4", null]);
    expect(await ids({ status: "revoked" })).toEqual(["3", null]);
    expect(await ids({ status: "exhausted" })).toEqual(["5", null]);
    expect(await ids({ expiringWithinDays: 3 })).toEqual(["2", null]);
    expect(await ids({ neverOpened: true })).toEqual(["64321", null]);
    expect(await ids({ recipient: "ana@example.com" })).toEqual(["61", null]);
    expect(await ids({ verdict: "verified" })).toEqual(["5", null]);
    expect(await ids({ limit: 2 })).toEqual(["76", "6"]);
    expect(await ids({ limit: 2, cursor: SEEDED.personal })).toEqual(["54", "4"]);
  });

  it("reads a share with its recipients in order and its creator, and 404s an unknown id", async () => {
    const { store } = open();
    const s = await store.getShare(caller, SEEDED.personal);
    expect([s.url, s.passwordProtected, s.createdBy, s.status]).toEqual([
      null,
      true,
      null,
      "active",
    ]);
    expect(s.recipients.map((r) => r.email)).toEqual(["bo@example.com", "ana@example.com"]);
    expect((await store.getShare(caller, SEEDED.active)).createdBy).toEqual({
      id: MEMBER,
      name: "Eve",
      email: "eve@studio.test",
    });
    expect(await refusal(store.getShare(caller, "nope"))).toEqual({
      status: 404,
      code: "not_found",
      message: "Share nope was not found",
      details: { shareId: "nope" },
    });
  });

  it("creates a share with its files, hold, links, mail, jobs and event in one transaction", async () => {
    const { store, rows } = open();
    const s = await store.createShare(
      caller,
      body({
        paths: ["Deliveries/cut", "Deliveries/notes.txt", "Deliveries/cut/reel1.mov"],
        recipients: ["zed@example.com", "ana@example.com"],
        message: "  Cut v2  ",
      }),
    );
    expect([s.title, s.message, s.fileCount, s.totalBytes, s.url]).toEqual([
      "cut",
      "Cut v2",
      3,
      3030,
      null,
    ]);
    expect(s.recipientLinks.map((l) => l.email)).toEqual(["zed@example.com", "ana@example.com"]);
    const file = (idx: number, path: string, size: number, mime = "video/quicktime") => ({
      idx,
      path,
      size,
      sha256: sha(idx + 1),
      mime,
    });
    expect(await rows(FILES_OF(s.id))).toEqual([
      file(0, "Deliveries/cut/reel1.mov", 1000),
      file(1, "Deliveries/cut/reel2.mov", 2000),
      file(2, "Deliveries/notes.txt", 30, "text/plain"),
    ]);
    expect((await rows(BLOBS)).map((b) => (b as { ref_count: number }).ref_count)).toEqual([
      8, 8, 2, 1,
    ]);
    const jobs = (await rows(JOBS)) as { kind: string; run_at: number }[];
    expect(jobs.map((j) => [j.kind, j.run_at - T0])).toEqual([
      ["shares.mail", 0],
      ["shares.mail", 0],
      ["shares.expire", 7 * 86_400_000],
    ]);
    expect(((await rows(OUTBOX)) as { link: string }[]).map((m) => m.link)).toEqual(
      s.recipientLinks.map((l) => l.url),
    );
    expect(((await rows(EVENTS)) as { type: string }[]).at(-1)?.type).toBe("share.created");
  });

  it("refuses an unknown path, an empty folder, protected content and no link, and writes nothing then", async () => {
    const { store, rows } = open();
    const before = await rows("SELECT id FROM shares ORDER BY id");
    expect(await refusal(store.createShare(caller, body({ paths: ["Deliveries/none"] })))).toEqual({
      status: 404,
      code: "not_found",
      message: '"Deliveries/none" was not found',
      details: { path: "Deliveries/none" },
    });
    const codes = async (b: Partial<CreateShareBody>) =>
      (await refusal(store.createShare(caller, body(b)))).details;
    expect(await codes({ paths: ["Deliveries/empty"] })).toMatchObject({
      issues: [{ code: "no_files" }],
    });
    expect(await codes({ paths: ["Deliveries", "locked.bin"] })).toMatchObject({
      issues: [{ code: "content_protected" }],
    });
    expect(await codes({ openLink: false })).toMatchObject({ issues: [{ code: "no_link" }] });
    expect(await rows("SELECT id FROM shares ORDER BY id")).toEqual(before);
  });

  it("extends and limits a share, refuses a past expiry and a revoked share, and revokes once", async () => {
    const { store, rows } = open();
    const s = await store.updateShare(caller, SEEDED.expired, { expiresInDays: 30 });
    expect([s.status, s.expiresAt, s.expiredAt]).toEqual([
      "active",
      new Date(T0 + 30 * 86_400_000).toISOString(),
      null,
    ]);
    expect((await store.updateShare(caller, SEEDED.soon, { maxDownloads: 4 })).maxDownloads).toBe(
      4,
    );
    const past = await refusal(
      store.updateShare(caller, SEEDED.soon, { expiresAt: new Date(T0 - 1).toISOString() }),
    );
    expect(past.details).toMatchObject({ issues: [{ field: "expiresAt", code: "in_the_past" }] });
    const revoked = await refusal(store.updateShare(caller, SEEDED.revoked, { expiresInDays: 1 }));
    expect(revoked.details).toMatchObject({ issues: [{ code: "revoked" }] });
    expect((await store.revokeShare(caller, SEEDED.soon)).status).toBe("revoked");
    expect((await store.revokeShare(caller, SEEDED.soon)).revokedAt).toBe(
      new Date(T0).toISOString(),
    );
    expect((await refusal(store.revokeShare(caller, "nope"))).status).toBe(404);
    const types = ((await rows(EVENTS)) as { type: string }[]).map((e) => e.type);
    expect(types.slice(-3)).toEqual(["share.extended", "share.extended", "share.revoked"]);
    expect((await rows(CHANGES)).length).toBe(2);
  });

  it("adds comments and replies in one-level threads, checks anchors, and pages oldest first", async () => {
    const { store, rows } = open();
    const reply = await store.addShareComment(caller, SEEDED.active, {
      body: "Noted",
      parentId: COMMENT,
      anchor: { path: "Deliveries/cut/reel1.mov", timeMs: 1500, page: null },
    });
    expect([reply.parentId, reply.author, reply.anchor]).toEqual([
      COMMENT,
      { kind: "member", name: "Eve", email: "eve@studio.test" },
      { path: "Deliveries/cut/reel1.mov", timeMs: 1500, page: null },
    ]);
    const nested = await store.addShareComment(caller, SEEDED.active, {
      body: "Re: noted",
      parentId: reply.id,
    });
    expect(nested.parentId).toBe(COMMENT);
    const issue = async (b: Parameters<SharesStore["addShareComment"]>[2]) =>
      (await refusal(store.addShareComment(caller, SEEDED.active, b))).details;
    expect(await issue({ body: "x", parentId: "00izzzzzzzzz" })).toMatchObject({
      issues: [{ code: "unknown_parent" }],
    });
    const at = (path: string, timeMs: number) => ({
      body: "x",
      anchor: { path, timeMs, page: null },
    });
    expect(await issue(at("Deliveries/notes.txt", 1))).toMatchObject({
      issues: [{ code: "not_in_share" }],
    });
    expect(await issue(at("Deliveries/cut/reel1.mov", 60_001))).toMatchObject({
      issues: [{ field: "anchor.timeMs", code: "past_end" }],
    });
    const first = await store.listShareComments(caller, SEEDED.active, { limit: 2 });
    expect([first.items.map((c) => c.body), first.next]).toEqual([
      ["First look", "Noted"],
      reply.id,
    ]);
    const rest = await store.listShareComments(caller, SEEDED.active, {
      limit: 2,
      after: first.next!,
    });
    expect([rest.items.map((c) => c.body), rest.next]).toEqual([["Re: noted"], null]);
    expect((await store.getShare(caller, SEEDED.active)).commentCount).toBe(3);
    expect((await refusal(store.listShareComments(caller, "nope", { limit: 5 }))).status).toBe(404);
    expect(await rows("SELECT id FROM share_comments ORDER BY id")).toHaveLength(3);
  });
});

describe("PostgreSQL and SQLite on the same rows", () => {
  const sqlite = sqliteEngine();
  const postgres = postgresEngine();

  /** Every unit with answers and refusals, then every row the units wrote. */
  async function transcript({ store, rows }: Engine) {
    const t: unknown[] = [];
    const step = async (p: Promise<unknown>) => {
      try {
        t.push(await p);
      } catch (err) {
        t.push(err instanceof ApiError ? [err.status, err.code, err.message, err.details] : err);
      }
    };
    for (const q of LISTS) await step(list(store, q));
    for (const id of [...Object.values(SEEDED), "nope"]) await step(store.getShare(caller, id));
    await step(
      store.createShare(
        caller,
        body({ paths: ["Deliveries"], recipients: ["x@example.com"], maxDownloads: 2 }),
      ),
    );
    await step(store.createShare(caller, body({ paths: ["Deliveries/cut/reel2.mov"] })));
    await step(store.createShare(caller, body({ recipients: ["y@example.com"], notify: false })));
    await step(store.createShare(caller, body({ paths: ["locked.bin"] })));
    await step(store.createShare(caller, body({ paths: ["Deliveries/empty", "nowhere"] })));
    await step(store.updateShare(caller, SEEDED.exhausted, { maxDownloads: null }));
    await step(store.updateShare(caller, SEEDED.active, { expiresAt: "2026-03-20T00:00:00Z" }));
    await step(store.updateShare(caller, SEEDED.active, { expiresAt: "2028-03-20T00:00:00Z" }));
    await step(store.updateShare(caller, "nope", { expiresInDays: 2 }));
    await step(store.revokeShare(caller, SEEDED.personal));
    await step(store.updateShare(caller, SEEDED.personal, { expiresInDays: 2 }));
    const anchor = { path: "Deliveries/cut/reel1.mov", timeMs: 60_000, page: null };
    await step(store.addShareComment(caller, SEEDED.opened, { body: "Grade", anchor }));
    await step(store.addShareComment(caller, SEEDED.active, { body: "Re", parentId: COMMENT }));
    await step(
      store.addShareComment(caller, SEEDED.active, { body: "?", parentId: "00inone0000" }),
    );
    await step(
      store.addShareComment(caller, SEEDED.active, { body: "p", anchor: { ...anchor, page: 1 } }),
    );
    await step(store.addShareComment(caller, "nope", { body: "x" }));
    for (const id of [SEEDED.active, SEEDED.opened, "nope"])
      await step(store.listShareComments(caller, id, { limit: 1 }));
    for (const q of LISTS) await step(list(store, q));
    for (const sql of [EVENTS, JOBS, OUTBOX, BLOBS, CHANGES]) t.push(await rows(sql));
    t.push(await rows("SELECT * FROM share_comments ORDER BY created_at, body"));
    // Every column but link_token (random; the answers' urls carry it).
    t.push(
      await rows(`SELECT id, workspace_id, member_id, key_id, title, message, open_link, password_hash,
        expires_at, max_downloads, download_count, view_count, comment_count, file_count, total_bytes,
        items, revoked_at, expired_at, created_at, updated_at, verdict FROM shares ORDER BY id`),
    );
    t.push(await rows("SELECT id, share_id, email, created_at FROM share_recipients ORDER BY id"));
    t.push(
      await rows(
        "SELECT share_id, idx, path, size, sha256, mime FROM share_files ORDER BY share_id, idx",
      ),
    );
    return stable(t);
  }

  it("answer, refuse and record every unit alike", async () => {
    const a = await transcript(sqlite());
    const b = await transcript(postgres());
    expect(b).toEqual(a);
  });
});
