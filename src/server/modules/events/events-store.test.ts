import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moveRows } from "@/server/db/pg/move-rows";
import { tempSqlite } from "@/server/testing/engine-suites";
import { freshPgDatabase } from "@/server/testing/pg-database";
import { type EventsStore, SqliteEventsStore } from "./events-store";
import { PgEventsStore } from "./events-store.pg";

const T0 = Date.parse("2026-06-01T12:00:00Z");

/**
 * Events whose ids do not follow their seq (another process's clock, a commit that came later),
 * one id in capitals (byte order puts it before every lower-case id; en-US after some), and
 * another workspace's events between them.
 */
const EVENTS = [
  ["e10", "ws", "member.joined"],
  ["e30", "ws", "share.created"],
  ["e20", "ws", "share.created"],
  ["e40", "ws2", "share.created"],
  ["e50", "ws", "member.joined"],
  ["F05", "ws", "share.revoked"],
] as const;

function seeded() {
  const s = tempSqlite("consign-events-store-");
  s.db
    .prepare("INSERT INTO workspaces (id, name, created_at) VALUES (?, 'W', ?), (?, 'X', ?)")
    .run("ws", T0, "ws2", T0);
  const insert = s.db.prepare(
    "INSERT INTO events (id, workspace_id, type, data, created_at, seq) VALUES (?, ?, ?, ?, ?, ?)",
  );
  EVENTS.forEach(([id, ws, type], i) => {
    insert.run(id, ws, type, JSON.stringify({ n: i, note: "Ölm — 東京" }), T0 + i, i + 1);
  });
  return s;
}

function sqliteEngine(): () => EventsStore {
  let s: ReturnType<typeof seeded>;
  beforeAll(() => {
    s = seeded();
  });
  afterAll(() => s.close());
  return () => new SqliteEventsStore(s.db);
}

function postgresEngine(): () => EventsStore {
  const pool = freshPgDatabase({ locale: "en-US" });
  beforeAll(async () => {
    const source = seeded();
    await moveRows(source.db, pool());
    source.close();
  });
  return () => new PgEventsStore(pool());
}

describe.each([
  { engine: "SQLite", use: sqliteEngine },
  { engine: "PostgreSQL", use: postgresEngine },
])("the events store on $engine", ({ use }) => {
  const open = use();
  const ids = async (q: Parameters<EventsStore["page"]>[1], ws = "ws") => {
    const page = await open().page(ws, q);
    return { ids: page.events.map((e) => e.id), next: page.next, hasMore: page.hasMore };
  };

  it("pages one workspace's stream in seq order, each event as the contract shows it", async () => {
    const first = await open().page("ws", { types: [], limit: 2 });
    expect(first).toEqual({
      events: [
        {
          id: "e10",
          type: "member.joined",
          createdAt: new Date(T0).toISOString(),
          workspaceId: "ws",
          data: { n: 0, note: "Ölm — 東京" },
        },
        expect.objectContaining({ id: "e30", type: "share.created" }),
      ],
      next: "e30",
      hasMore: true,
    });
    expect(await ids({ after: "e30", types: [], limit: 2 })).toEqual({
      ids: ["e20", "e50"],
      next: "e50",
      hasMore: true,
    });
    expect(await ids({ after: "e50", types: [], limit: 2 })).toEqual({
      ids: ["F05"],
      next: "F05",
      hasMore: false,
    });
    expect(await ids({ after: "F05", types: [], limit: 2 })).toEqual({
      ids: [],
      next: "F05",
      hasMore: false,
    });
    expect(await ids({ types: [], limit: 5 }, "ws2")).toEqual({
      ids: ["e40"],
      next: "e40",
      hasMore: false,
    });
    expect(await ids({ types: [], limit: 5 }, "nowhere")).toEqual({
      ids: [],
      next: null,
      hasMore: false,
    });
  });

  it("maps an unknown cursor to the last event at or before it in byte order", async () => {
    // At or before "e25": e10, e20 and F05 (capitals sort first), so after F05's seq: nothing.
    expect(await ids({ after: "e25", types: [], limit: 5 })).toEqual({
      ids: [],
      next: "e25",
      hasMore: false,
    });
    // At or before "E99": none of ws's ids, so from the start.
    expect((await ids({ after: "E99", types: [], limit: 5 })).ids).toEqual([
      "e10",
      "e30",
      "e20",
      "e50",
      "F05",
    ]);
    // Another workspace's id is unknown here: at or before "e40" are e10, e30, e20 and F05.
    expect(await ids({ after: "e40", types: [], limit: 5 })).toEqual({
      ids: [],
      next: "e40",
      hasMore: false,
    });
  });

  it("filters by type and reads the latest page, oldest first", async () => {
    expect(await ids({ types: ["share.created", "share.revoked"], limit: 2 })).toEqual({
      ids: ["e30", "e20"],
      next: "e20",
      hasMore: true,
    });
    expect(await ids({ after: "e20", types: ["share.created"], limit: 2 })).toEqual({
      ids: [],
      next: "e20",
      hasMore: false,
    });
    expect(await ids({ types: [], limit: 3, latest: true })).toEqual({
      ids: ["e20", "e50", "F05"],
      next: "F05",
      hasMore: false,
    });
    expect(await ids({ types: ["member.joined"], limit: 5, latest: true })).toEqual({
      ids: ["e10", "e50"],
      next: "e50",
      hasMore: false,
    });
    expect(await ids({ after: "e30", types: [], limit: 1, latest: true })).toEqual({
      ids: ["e20"],
      next: "e20",
      hasMore: true,
    });
  });
});
