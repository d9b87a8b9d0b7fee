import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_PREFIX } from "@/contract/auth";
import { SHARE_PASSWORD_FREE_TRIES, SHARE_PASSWORD_TARGET_CEILING } from "@/contract/rules";
import type { Db } from "@/server/db/database";
import { moveRows } from "@/server/db/pg/move-rows";
import { randomBase62 } from "@/server/lib/ids";
import { hashSecret } from "@/server/lib/secrets";
import { refusal, tempSqlite } from "@/server/testing/engine-suites";
import { freshPgDatabase } from "@/server/testing/pg-database";
import { type AccessStore, SqliteAccessStore } from "./access-store";
import { PgAccessStore } from "./access-store.pg";

const T0 = Date.parse("2026-03-01T09:00:00Z");
const MINUTE = 60_000;

/** The plaintexts, made once so both engines' databases hold the same keys. */
const KEYS = {
  live: `${API_KEY_PREFIX}${randomBase62(40)}`,
  hinted: `${API_KEY_PREFIX}${randomBase62(40)}`,
  revoked: `${API_KEY_PREFIX}${randomBase62(40)}`,
  expired: `${API_KEY_PREFIX}${randomBase62(40)}`,
  orphaned: `${API_KEY_PREFIX}${randomBase62(40)}`,
};

/** A workspace, a member and one who left, and a key in each state, on a fresh SQLite file. */
function seedSqlite() {
  const seeded = tempSqlite("consign-access-store-");
  const { db } = seeded;
  db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES ('ws', 'Studio Ölm', ?)").run(
    T0,
  );
  const member = db.prepare(
    `INSERT INTO members (id, workspace_id, email, name, role, joined_at, removed_at)
     VALUES (?, 'ws', ?, ?, ?, ?, ?)`,
  );
  member.run("m_admin", "ana@example.com", "Ana Ñ", "admin", T0, null);
  member.run("m_left", "leo@example.com", "Leo", "member", T0, T0 + 1000);
  const key = db.prepare(
    `INSERT INTO api_keys (id, workspace_id, member_id, name, hint, key_hash, scopes, expires_at, revoked_at, created_at, last_used_at)
     VALUES (?, 'ws', ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
  );
  const add = (
    id: string,
    k: string,
    memberId: string,
    expires: number | null,
    revoked: number | null,
  ) =>
    key.run(
      id,
      memberId,
      `${id} key`,
      k.slice(-4),
      hashSecret(k),
      '["files:read","shares:write"]',
      expires,
      revoked,
      T0,
    );
  add("k_live", KEYS.live, "m_admin", null, null);
  add("k_hinted", KEYS.hinted, "m_admin", T0 + 24 * 60 * MINUTE, null);
  add("k_revoked", KEYS.revoked, "m_admin", null, T0 + 5);
  add("k_expired", KEYS.expired, "m_admin", T0 + MINUTE, null);
  add("k_orphaned", KEYS.orphaned, "m_left", null, null);
  return seeded;
}

/** One engine's store over the seeded rows, and a raw look at its api_keys rows. */
interface Engine {
  store: AccessStore;
  keyRows(): Promise<Record<string, unknown>[]>;
}

const KEY_ROWS = "SELECT * FROM api_keys ORDER BY id";

function sqliteEngine(): () => Engine {
  let seeded: ReturnType<typeof seedSqlite>;
  let db: Db;
  beforeAll(() => {
    seeded = seedSqlite();
    db = seeded.db;
  });
  afterAll(() => seeded.close());
  return () => ({
    store: new SqliteAccessStore(db),
    keyRows: async () => db.prepare(KEY_ROWS).all() as Record<string, unknown>[],
  });
}

/** The same rows moved from an identically seeded SQLite file, in an en-US database. */
function postgresEngine(): () => Engine {
  const pool = freshPgDatabase({ locale: "en-US" });
  let store: PgAccessStore;
  beforeAll(async () => {
    const source = seedSqlite();
    await moveRows(source.db, pool());
    source.close();
    store = new PgAccessStore(pool());
  });
  return () => ({ store, keyRows: async () => (await pool().query(KEY_ROWS)).rows });
}

const lastUsed = async (e: Engine, id: string) =>
  (await e.keyRows()).find((r) => r.id === id)?.last_used_at;

describe.each([
  { engine: "SQLite", use: sqliteEngine },
  { engine: "PostgreSQL", use: postgresEngine },
])("the access store on $engine", ({ use }) => {
  const open = use();
  const now = T0 + 10 * MINUTE;

  it("lets a live key in, and refuses unknown, revoked, expired and a removed creator's keys", async () => {
    const { store } = open();
    expect(await store.authenticate(KEYS.live, now)).toEqual({
      ok: true,
      key: {
        id: "k_live",
        workspaceId: "ws",
        memberId: "m_admin",
        name: "k_live key",
        hint: KEYS.live.slice(-4),
        scopes: ["files:read", "shares:write"],
        expiresAt: null,
        revokedAt: null,
        createdAt: T0,
        lastUsedAt: null,
      },
    });
    const unknown = `${API_KEY_PREFIX}${randomBase62(40)}`;
    const refused = [unknown, KEYS.revoked, KEYS.expired, KEYS.orphaned].map((k) =>
      store.authenticate(k, now),
    );
    expect(await Promise.all(refused)).toEqual([
      { ok: false, reason: "unknown" },
      { ok: false, reason: "revoked" },
      { ok: false, reason: "expired" },
      { ok: false, reason: "creator_removed" },
    ]);
    // A key is expired from its expiry on, not after it.
    expect((await store.authenticate(KEYS.hinted, T0 + 24 * 60 * MINUTE)).ok).toBe(false);
  });

  it("records a key's last use at most once a minute, and never a refused key's", async () => {
    const e = open();
    await e.store.authenticate(KEYS.hinted, now);
    expect(await lastUsed(e, "k_hinted")).toBe(now);
    const later = await e.store.authenticate(KEYS.hinted, now + MINUTE);
    expect(later.ok && later.key.lastUsedAt).toBe(now);
    expect(await lastUsed(e, "k_hinted")).toBe(now);
    await e.store.authenticate(KEYS.hinted, now + MINUTE + 1);
    expect(await lastUsed(e, "k_hinted")).toBe(now + MINUTE + 1);
    await e.store.authenticate(KEYS.revoked, now);
    await e.store.authenticate(KEYS.orphaned, now);
    expect(await lastUsed(e, "k_revoked")).toBeNull();
    expect(await lastUsed(e, "k_orphaned")).toBeNull();
  });

  it("keeps keys only as their SHA-256", async () => {
    const rows = await open().keyRows();
    const text = JSON.stringify(rows);
    for (const k of Object.values(KEYS)) {
      expect(text).not.toContain(k.slice(API_KEY_PREFIX.length));
      expect(rows.filter((r) => r.key_hash === hashSecret(k))).toHaveLength(1);
    }
  });

  it("shows a key its record, workspace and creator, and a key gone since as unknown", async () => {
    const { store } = open();
    const info = await store.keyInfo({ keyId: "k_live", workspaceId: "ws", memberId: "m_admin" });
    expect([info.key.id, info.key.scopes, info.workspace, info.member]).toEqual([
      "k_live",
      ["files:read", "shares:write"],
      { id: "ws", name: "Studio Ölm" },
      { id: "m_admin", name: "Ana Ñ", email: "ana@example.com", role: "admin" },
    ]);
    expect(
      await refusal(store.keyInfo({ keyId: "k_none", workspaceId: "ws", memberId: "m_admin" })),
    ).toEqual({
      status: 401,
      code: "unauthenticated",
      message: "This API key is not known",
      details: { reason: "unknown" },
    });
  });

  it("slows down an address's wrong tries, then every address's at the target's ceiling", async () => {
    const { store } = open();
    const from = (address: string, target = "shr_1") => ({
      kind: "share" as const,
      target,
      address,
    });
    const claims = [];
    for (let i = 0; i < SHARE_PASSWORD_FREE_TRIES; i++)
      claims.push((await store.claimAttempt(from("a"), now)).tries);
    expect(claims).toEqual([0, 1, 2, 3, 4]);
    expect(await refusal(store.claimAttempt(from("a"), now + 999))).toEqual({
      status: 429,
      code: "rate_limited",
      message: "Too many wrong passwords from this address: wait before trying again",
      details: { retryAfterSeconds: 1, per: "address", limit: 5, windowSeconds: 900 },
    });
    // Another address, or the same one on another kind of page, is not held to it.
    expect((await store.claimAttempt(from("b"), now)).tries).toBe(0);
    expect((await store.claimAttempt({ ...from("a"), kind: "portal" }, now)).tries).toBe(0);
    const sixth = await store.claimAttempt(from("a"), now + 1000);
    expect(sixth.tries).toBe(5);
    expect((await refusal(store.claimAttempt(from("a"), now + 1000))).details).toMatchObject({
      retryAfterSeconds: 2,
    });
    // A right password's try is given back: the address is as it was before it.
    await store.giveBackAttempt(sixth.id);
    expect((await store.claimAttempt(from("a"), now + 2000)).tries).toBe(5);

    for (let i = 0; i < SHARE_PASSWORD_TARGET_CEILING; i++)
      await store.claimAttempt(from(`198.51.100.${i}`, "prt_1"), now + i);
    expect(await refusal(store.claimAttempt(from("c", "prt_1"), now + 60_000))).toEqual({
      status: 429,
      code: "rate_limited",
      message: "Too many wrong passwords from all addresses: wait before trying again",
      details: { retryAfterSeconds: 840, per: "target", limit: 50, windowSeconds: 900 },
    });
    // Once the window has passed, the old tries are forgotten.
    const afterWindow = now + 15 * MINUTE + SHARE_PASSWORD_TARGET_CEILING;
    expect((await store.claimAttempt(from("c", "prt_1"), afterWindow)).tries).toBe(0);
    expect((await store.claimAttempt(from("198.51.100.0", "prt_1"), afterWindow)).tries).toBe(0);
  });
});
