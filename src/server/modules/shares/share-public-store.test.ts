import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moveRows } from "@/server/db/pg/move-rows";
import { createDeps } from "@/server/deps";
import { testConfig } from "@/server/env";
import type { Caller } from "@/server/http/caller";
import { ApiError } from "@/server/lib/api-error";
import { ManualClock } from "@/server/lib/clock";
import { PgAccessStore } from "@/server/modules/auth/access-store.pg";
import { refusal } from "@/server/testing/engine-suites";
import { freshPgDatabase } from "@/server/testing/pg-database";
import type { LinkRequest } from "./public.service";
import type { SharePublicStore } from "./share-public-store";
import { PgSharePublicStore } from "./share-public-store.pg";
import { ADDRESS, PASSWORD, PERSONAL, plainToken, seedPublic } from "./share-public-store.seed";
import { COMMENT, MEMBER, SEEDED, sha, T0, WS } from "./shares-store.seed";

/** One engine's store over the seeded rows, its clock, and a portable SELECT on its database. */
interface Engine {
  store: SharePublicStore;
  clock: ManualClock;
  rows(sql: string): Promise<unknown[]>;
}

function sqliteEngine(): () => Engine {
  let seeded: Awaited<ReturnType<typeof seedPublic>>;
  let engine: Engine;
  beforeAll(async () => {
    seeded = await seedPublic();
    const clock = new ManualClock(T0);
    const deps = createDeps(testConfig(seeded.dir), { clock, db: seeded.db });
    const rows = async (sql: string) => seeded.db.prepare(sql).all();
    engine = { store: deps.sharePublicStore, clock, rows };
  });
  afterAll(() => seeded.close());
  return () => engine;
}

/** The same rows moved from an identically seeded SQLite file, in an en-US database. */
function postgresEngine(): () => Engine {
  const pool = freshPgDatabase({ locale: "en-US" });
  let engine: Engine;
  let dataDir: string;
  beforeAll(async () => {
    const source = await seedPublic();
    await moveRows(source.db, pool());
    source.close();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-share-public-"));
    const clock = new ManualClock(T0);
    const accessStore = new PgAccessStore(pool());
    const config = { dataDir, publicUrl: null };
    const store = new PgSharePublicStore(pool(), { accessStore, clock, config });
    engine = { store, clock, rows: async (sql) => (await pool().query(sql)).rows };
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  return () => engine;
}

const caller: Caller = { workspaceId: WS, memberId: MEMBER, keyId: null, origin: "https://c.test" };
const visit = (token: string, over: Partial<LinkRequest> = {}): LinkRequest => ({
  token,
  address: ADDRESS,
  userAgent: "Test/1.0",
  origin: "https://c.test",
  ...over,
});

const VIEWS =
  "SELECT share_id, recipient_id, address, user_agent, viewed_at FROM share_views ORDER BY id";
const FAILURES =
  "SELECT share_id, recipient_id, address, failed_at FROM share_password_failures ORDER BY id";
const COUNTS = "SELECT id, view_count, comment_count FROM shares ORDER BY id";
const RECIPIENTS =
  "SELECT id, views, first_viewed_at, last_viewed_at FROM share_recipients ORDER BY id";
const COMMENTS = `SELECT share_id, parent_id, body, author_kind, author_name, author_email, created_at,
  anchor_path, anchor_time_ms, anchor_page FROM share_comments ORDER BY created_at, body`;

describe.each([
  { engine: "SQLite", use: sqliteEngine },
  { engine: "PostgreSQL", use: postgresEngine },
])("the share public store on $engine", ({ use }) => {
  const open = use();

  it("opens a share by its plain and personal links, and counts a view only without the access header", async () => {
    const { store, rows } = open();
    const before = (await rows(VIEWS)).length;
    const plain = await store.openShare(visit(plainToken("active")));
    expect(plain).toMatchObject({
      title: "cut",
      status: "active",
      workspaceName: "Studio Ö",
      passwordRequired: false,
      personal: false,
      fileCount: 2,
    });
    expect(plain.files?.map((f) => f.path)).toEqual([
      "Deliveries/cut/reel1.mov",
      "Deliveries/cut/reel2.mov",
    ]);
    const mine = await store.openShare(visit(PERSONAL.activeAna.token));
    expect(mine.personal).toBe(true);
    await store.openShare(visit(plainToken("active"), { access: "again" }));
    const views = (await rows(VIEWS)).slice(before);
    expect(views).toEqual([
      {
        share_id: SEEDED.active,
        recipient_id: null,
        address: ADDRESS,
        user_agent: "Test/1.0",
        viewed_at: T0,
      },
      {
        share_id: SEEDED.active,
        recipient_id: PERSONAL.activeAna.recipient,
        address: ADDRESS,
        user_agent: "Test/1.0",
        viewed_at: T0,
      },
    ]);
    expect(await rows(RECIPIENTS)).toContainEqual({
      id: PERSONAL.activeAna.recipient,
      views: 2,
      first_viewed_at: T0 - 5 * 3_600_000,
      last_viewed_at: T0,
    });
  });

  it("refuses an unknown or malformed link, a closed plain link, and a share that is not open", async () => {
    const { store } = open();
    const unknown = {
      status: 404,
      code: "not_found",
      message: "Share link was not found",
      details: { reason: "unknown_link" },
    };
    expect(await refusal(store.openShare(visit("A".repeat(32))))).toEqual(unknown);
    expect(await refusal(store.openShare(visit("short")))).toEqual(unknown);
    expect(await refusal(store.openShare(visit(plainToken("personal"))))).toEqual(unknown);
    for (const [name, status] of [
      ["revoked", "revoked"],
      ["expired", "expired"],
      ["exhausted", "exhausted"],
    ] as const)
      expect(await refusal(store.openShare(visit(plainToken(name))))).toEqual({
        status: 403,
        code: "forbidden",
        message: `This share is ${status}`,
        details: { reason: `share_${status}`, status },
      });
  });

  it("unlocks a password with the access store's slow-down, logging each wrong one", async () => {
    const { store, rows, clock } = open();
    const token = PERSONAL.personalBo.token;
    const locked = await store.openShare(visit(token));
    expect([locked.passwordRequired, locked.files]).toEqual([true, null]);
    expect(
      await refusal(store.publicComments(visit(token, { access: "x" }), { limit: 5 })),
    ).toEqual({
      status: 403,
      code: "forbidden",
      message: "This share needs its password",
      details: { reason: "password_required" },
    });
    const wrong = await refusal(store.unlockShare(visit(token), "guess"));
    expect([wrong.status, wrong.details]).toEqual([
      403,
      { reason: "wrong_password", triesBeforeDelay: 4 },
    ]);
    const failures = (await rows(FAILURES)).filter(
      (f) => (f as { share_id: string }).share_id === SEEDED.personal,
    );
    expect(failures).toEqual([
      {
        share_id: SEEDED.personal,
        recipient_id: PERSONAL.personalBo.recipient,
        address: ADDRESS,
        failed_at: T0,
      },
    ]);
    const { accessToken, expiresAt } = await store.unlockShare(visit(token), PASSWORD);
    expect(expiresAt).toBe(new Date(T0 + 2 * 3_600_000).toISOString());
    const unlocked = await store.openShare(visit(token, { access: accessToken }));
    expect([unlocked.passwordRequired, unlocked.files?.length]).toEqual([false, 2]);
    // Bought on one link, the token opens the share on no other.
    const other = await store.openShare(visit(PERSONAL.personalAna.token, { access: accessToken }));
    expect(other.passwordRequired).toBe(true);
    for (let i = 0; i < 4; i++) await refusal(store.unlockShare(visit(token), `guess ${i}`));
    const slowed = await refusal(store.unlockShare(visit(token), PASSWORD));
    expect([slowed.status, slowed.code, slowed.details]).toEqual([
      429,
      "rate_limited",
      { retryAfterSeconds: 1, per: "address", limit: 5, windowSeconds: 900 },
    ]);
    clock.advance(1000);
    expect((await store.unlockShare(visit(token), PASSWORD)).accessToken).toBeTruthy();
  });

  it("takes recipients' and anonymous comments, and shows each link only its own address", async () => {
    const { store, rows } = open();
    const ana = visit(PERSONAL.activeAna.token);
    const reply = await store.addRecipientComment(ana, { body: "Got it", parentId: COMMENT });
    expect([reply.parentId, reply.author]).toEqual([
      COMMENT,
      { kind: "recipient", name: null, email: "ana@example.com" },
    ]);
    const anon = await store.addRecipientComment(visit(plainToken("active")), {
      body: "Looks good",
      name: "Guest",
      anchor: { path: "Deliveries/cut/reel1.mov", timeMs: 30_000, page: null },
    });
    expect(anon.author).toEqual({ kind: "anonymous", name: "Guest", email: null });
    const issue = await refusal(
      store.addRecipientComment(ana, {
        body: "x",
        anchor: { path: "Deliveries/notes.txt", timeMs: 1, page: null },
      }),
    );
    expect(issue.details).toMatchObject({ issues: [{ code: "not_in_share" }] });
    const emails = async (req: LinkRequest) =>
      (await store.publicComments(req, { limit: 10 })).items.map((c) => c.author.email);
    expect(await emails(ana)).toEqual(["ana@example.com", "ana@example.com", null]);
    expect(await emails(visit(plainToken("active")))).toEqual([null, null, null]);
    const page = await store.publicComments(ana, { limit: 1 });
    expect([page.items.length, page.next]).toEqual([1, COMMENT]);
    expect((await rows(COMMENTS)).length).toBe(3);
    expect(await rows(COUNTS)).toContainEqual({
      id: SEEDED.active,
      view_count: 4,
      comment_count: 3,
    });
  });

  it("names the share's files among the paths asked, behind the link's checks", async () => {
    const { store } = open();
    const asked = ["Deliveries/cut/reel2.mov", "Deliveries/notes.txt", "Deliveries/cut/reel2.mov"];
    const found = await store.sharedFiles(visit(plainToken("active")), asked);
    expect([found.share.id, [...found.files.values()]]).toEqual([
      SEEDED.active,
      [
        {
          share_id: SEEDED.active,
          idx: 1,
          path: "Deliveries/cut/reel2.mov",
          size: 2000,
          sha256: sha(2),
          mime: "video/quicktime",
        },
      ],
    ]);
    const locked = await refusal(store.sharedFiles(visit(PERSONAL.personalBo.token), asked));
    expect(locked.details).toEqual({ reason: "password_required" });
    expect((await refusal(store.sharedFiles(visit(plainToken("revoked")), []))).status).toBe(403);
  });

  it("builds a share's receipt and its verification report from the share's own tables", async () => {
    const { store } = open();
    const r = await store.receipt(caller, SEEDED.active);
    expect([r.receiptId, r.share.workspace.name, r.verdict]).toEqual([
      `rcpt_${SEEDED.active}`,
      "Studio Ö",
      "verified",
    ]);
    expect(r.downloads.map((d) => [d.who.kind, d.verified, d.unverifiedFiles.length])).toEqual([
      ["recipient", true, 0],
      ["anonymous", false, 1],
      ["anonymous", false, 0],
    ]);
    expect(r.timeline.map((t) => t.type)).toEqual(
      expect.arrayContaining([
        "created",
        "sent",
        "viewed",
        "downloaded",
        "extended",
        "password_failed",
        "commented",
      ]),
    );
    expect(r.matrix.map((m) => [m.email, m.state, m.cells])).toEqual([
      ["ana@example.com", "verified", "vv"],
      [null, "failed", "vx"],
    ]);
    const csv = [...(await store.receiptCsv(WS, SEEDED.active))].join("");
    expect(csv.split("\r\n").slice(0, 2)).toEqual([
      "recipient,path,size_bytes,sha256,status,downloaded_at,download_id",
      [
        "ana@example.com",
        "Deliveries/cut/reel1.mov",
        1000,
        "1".padStart(64, "0"),
        "verified",
        new Date(T0 - 4 * 3_600_000).toISOString(),
        r.downloads[0]!.id,
      ]
        .map((v) => (typeof v === "number" ? v : `"${v}"`))
        .join(","),
    ]);
    const gone = {
      status: 404,
      code: "not_found",
      message: "Share nope was not found",
      details: { shareId: "nope" },
    };
    expect(await refusal(store.receipt(caller, "nope"))).toEqual(gone);
    expect(await refusal(store.receiptCsv(WS, "nope"))).toEqual(gone);
    expect(
      await refusal(store.receipt({ ...caller, workspaceId: "other" }, SEEDED.active)),
    ).toMatchObject({ status: 404 });
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
    const tokens = [
      ...Object.keys(SEEDED).map((n) => plainToken(n as keyof typeof SEEDED)),
      ...Object.values(PERSONAL).map((p) => p.token),
      "Z".repeat(22),
    ];
    for (const token of tokens) await step(store.openShare(visit(token)));
    const bo = visit(PERSONAL.personalBo.token);
    await step(store.unlockShare(bo, "wrong"));
    await step(store.unlockShare(visit(plainToken("opened")), "wrong"));
    await step(store.unlockShare(visit(plainToken("active")), "any"));
    await step(store.unlockShare(visit(plainToken("revoked")), "any"));
    const { accessToken } = await store.unlockShare(bo, PASSWORD);
    const unlocked = { ...bo, access: accessToken };
    await step(store.openShare(unlocked));
    await step(store.addRecipientComment(unlocked, { body: "From Bo" }));
    await step(store.addRecipientComment(bo, { body: "No token" }));
    const ana = visit(PERSONAL.personalAna.token);
    await step(store.addRecipientComment(ana, { body: "No token either" }));
    await step(store.publicComments(unlocked, { limit: 5 }));
    const plain = visit(plainToken("active"));
    const anchor = { path: "Deliveries/cut/reel2.mov", timeMs: 1, page: 2 };
    await step(store.addRecipientComment(plain, { body: "Paged", anchor }));
    await step(store.addRecipientComment(plain, { body: "Re", parentId: COMMENT, name: "Kim" }));
    await step(store.addRecipientComment(plain, { body: "?", parentId: "00inone" }));
    await step(store.publicComments(plain, { limit: 2 }));
    for (const req of [plain, bo, unlocked, visit(plainToken("expired"))])
      await step(
        store
          .sharedFiles(req, ["Deliveries/cut/reel1.mov", "nope", "Deliveries/cut/reel2.mov"])
          .then((f) => [f.share.id, [...f.files.values()]]),
      );
    await step(store.publicComments(visit(PERSONAL.activeAna.token), { limit: 5, after: COMMENT }));
    for (const id of [...Object.values(SEEDED), "nope"]) {
      await step(store.receipt(caller, id));
      await step(store.receiptCsv(WS, id).then((lines) => [...lines]));
    }
    for (const sql of [VIEWS, FAILURES, COUNTS, RECIPIENTS, COMMENTS]) t.push(await rows(sql));
    // Access tokens are signed with each engine's own key; new comments' ids are random.
    return JSON.parse(
      JSON.stringify(t)
        .replace(/"\d{13}\.[\w-]{43}"/g, '"<access>"')
        .replace(/\b[0-9a-hjkmnp-tv-z]{26}\b/g, "<id>"),
    );
  }

  it("answer, refuse and record every unit alike", async () => {
    const a = await transcript(sqlite());
    const b = await transcript(postgres());
    expect(b).toEqual(a);
  });
});
