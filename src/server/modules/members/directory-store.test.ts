import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_PREFIX } from "@/contract/auth";
import { scopes } from "@/contract/common";
import { FIRST_ADMIN_EMAIL } from "@/server/bootstrap";
import { ManualClock } from "@/server/lib/clock";
import { hashSecret } from "@/server/lib/secrets";
import { PgEventRecorder } from "@/server/modules/events/events.pg";
import { EventRecorder } from "@/server/modules/events/events.repository";
import { tempSqlite } from "@/server/testing/engine-suites";
import { freshPgDatabase, pgFromSqlite } from "@/server/testing/pg-database";
import { type DirectoryStore, SqliteDirectoryStore } from "./directory-store";
import { PgDirectoryStore } from "./directory-store.pg";

const T0 = Date.parse("2026-03-01T09:00:00Z");
const config = { workspaceName: "Studio Ölm" };

interface Engine {
  store: DirectoryStore;
  clock: ManualClock;
  rows(sql: string): Promise<Record<string, unknown>[]>;
}

/** An empty migrated database of each engine, as on a first start. */
function sqliteEngine(): () => Engine {
  let seeded: ReturnType<typeof tempSqlite>;
  const clock = new ManualClock(T0);
  beforeAll(() => {
    seeded = tempSqlite("consign-directory-");
  });
  afterAll(() => seeded.close());
  return () => {
    const { db } = seeded;
    const events = new EventRecorder(db, clock);
    return {
      store: new SqliteDirectoryStore({ db, clock, events, config }),
      clock,
      rows: async (sql) => db.prepare(sql).all() as Record<string, unknown>[],
    };
  };
}

function postgresEngine(): () => Engine {
  const pool = freshPgDatabase({ locale: "en-US" });
  const clock = new ManualClock(T0);
  return () => ({
    store: new PgDirectoryStore(pool(), clock, new PgEventRecorder(clock), config),
    clock,
    rows: async (sql) => (await pool().query(sql)).rows,
  });
}

const ENGINES = [
  { engine: "SQLite", use: sqliteEngine },
  { engine: "PostgreSQL", use: postgresEngine },
];

const events = async (e: Engine) =>
  (await e.rows("SELECT type, data FROM events ORDER BY seq")).map((r) => ({
    type: r.type,
    data: JSON.parse(r.data as string),
  }));

describe.each(ENGINES)("the directory on $engine", ({ use }) => {
  const open = use();
  let workspaceId: string;

  it("makes the first workspace, its admin and an all-scopes key once", async () => {
    const e = open();
    const first = await e.store.bootstrap({ keepKey: true });
    if (!first.created) throw new Error("expected a new workspace");
    expect(first.workspace).toMatchObject({ name: "Studio Ölm", created_at: T0 });
    expect(first.adminKey.startsWith(API_KEY_PREFIX)).toBe(true);
    workspaceId = first.workspace.id;
    expect(await e.store.bootstrap({ keepKey: true })).toEqual({
      created: false,
      workspace: first.workspace,
    });
    expect(await e.store.workspaces()).toEqual([first.workspace]);
    const [admin, ...others] = await e.store.members(workspaceId);
    expect(others).toEqual([]);
    expect(admin).toMatchObject({ email: FIRST_ADMIN_EMAIL, role: "admin", removed_at: null });
    const [key] = await e.store.keys(workspaceId);
    expect(key).toMatchObject({
      memberId: admin!.id,
      scopes: [...scopes],
      revokedAt: null,
      name: "First start",
      hint: first.adminKey.slice(-4),
    });
    // Only the hash is stored.
    const [stored] = await e.rows("SELECT key_hash FROM api_keys");
    expect(stored).toEqual({ key_hash: hashSecret(first.adminKey) });
    expect(await events(e)).toEqual([
      {
        type: "member.joined",
        data: {
          member: {
            id: admin!.id,
            email: FIRST_ADMIN_EMAIL,
            name: "Admin",
            role: "admin",
            joinedAt: new Date(T0).toISOString(),
          },
        },
      },
    ]);
  });

  it("adds, finds (by id, or email in any ASCII case) and removes members, with their events", async () => {
    const e = open();
    e.clock.set(T0 + 60_000);
    const added = await e.store.addMember({
      workspaceId,
      email: "Zoë.Editor@Example.COM",
      name: "Zoë Ñ",
      role: "member",
    });
    expect(added).toMatchObject({ email: "zoë.editor@example.com", joined_at: T0 + 60_000 });
    expect(await e.store.findMember(workspaceId, "ZOë.EDITOR@example.com")).toEqual(added);
    expect(await e.store.findMember(workspaceId, added.id)).toEqual(added);
    // SQLite's lower() folds ASCII only: Ë is not ë.
    expect(await e.store.findMember(workspaceId, "ZOË.EDITOR@example.com")).toBeUndefined();
    expect(await e.store.findMember("elsewhere", added.id)).toBeUndefined();
    expect((await e.store.members(workspaceId)).map((m) => m.email)).toEqual([
      FIRST_ADMIN_EMAIL,
      added.email,
    ]);
    e.clock.set(T0 + 120_000);
    await e.store.removeMember(added);
    expect(await e.store.findMember(workspaceId, added.id)).toBeUndefined();
    expect((await e.store.members(workspaceId)).map((m) => m.email)).toEqual([FIRST_ADMIN_EMAIL]);
    expect((await events(e)).slice(1)).toEqual([
      {
        type: "member.joined",
        data: {
          member: {
            id: added.id,
            email: added.email,
            name: "Zoë Ñ",
            role: "member",
            joinedAt: new Date(T0 + 60_000).toISOString(),
          },
        },
      },
      {
        type: "member.removed",
        data: {
          member: {
            id: added.id,
            email: added.email,
            name: "Zoë Ñ",
            role: "member",
            joinedAt: new Date(T0 + 60_000).toISOString(),
            removedAt: new Date(T0 + 120_000).toISOString(),
          },
        },
      },
    ]);
  });

  it("creates, reads, lists and revokes keys; a second revocation says so", async () => {
    const e = open();
    const [admin] = await e.store.members(workspaceId);
    e.clock.set(T0 + 180_000);
    const { key, record } = await e.store.createKey({
      workspaceId,
      memberId: admin!.id,
      scopes: ["files:read", "files:read", "shares:write"],
      expiresAt: T0 + 86_400_000,
      name: "Render farm",
    });
    expect(key.slice(-4)).toBe(record.hint);
    expect(record).toMatchObject({
      scopes: ["files:read", "shares:write"],
      expiresAt: T0 + 86_400_000,
      createdAt: T0 + 180_000,
      revokedAt: null,
      lastUsedAt: null,
    });
    expect(await e.store.key(record.id)).toEqual(record);
    expect(await e.store.key("nope")).toBeUndefined();
    expect((await e.store.keys(workspaceId)).map((k) => k.name)).toEqual([
      "First start",
      "Render farm",
    ]);
    e.clock.set(T0 + 240_000);
    expect(await e.store.revokeKey(record.id)).toBe(true);
    expect(await e.store.revokeKey(record.id)).toBe(false);
    expect(await e.store.revokeKey("nope")).toBe(false);
    expect(await e.store.key(record.id)).toEqual({ ...record, revokedAt: T0 + 240_000 });
  });
});

describe.each(ENGINES)("a CLI's first run on $engine", ({ use }) => {
  const open = use();

  it("makes the workspace with its first key already revoked: nobody could ever see it", async () => {
    const e = open();
    const made = await e.store.bootstrap({ keepKey: false });
    expect(made.created).toBe(true);
    const keys = await e.store.keys(made.workspace.id);
    expect(keys.map((k) => k.revokedAt)).toEqual([T0]);
  });
});

describe("PostgreSQL's first start from two processes at once", () => {
  const pools = pgFromSqlite(() => tempSqlite("consign-directory-race-"));

  it("makes one workspace: the others find it", async () => {
    const { pool, other } = pools();
    const clock = new ManualClock(T0);
    const starts = [pool, other, pool, other, pool, other].map((p) =>
      new PgDirectoryStore(p, clock, new PgEventRecorder(clock), config).bootstrap({
        keepKey: true,
      }),
    );
    const results = await Promise.all(starts);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.workspace.id)).size).toBe(1);
    expect((await pool.query("SELECT count(*) AS n FROM workspaces")).rows).toEqual([{ n: 1 }]);
  });
});
