import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moveRows } from "@/server/db/pg/move-rows";
import { tempSqlite } from "@/server/testing/engine-suites";
import { freshPgDatabase } from "@/server/testing/pg-database";
import { type SettingsStore, SqliteSettingsStore } from "./settings-store";
import { PgSettingsStore } from "./settings-store.pg";

const T0 = Date.parse("2026-03-01T09:00:00Z");
const LOGO_BYTES = 1234;

/** Two workspaces, the second with a logo (its bytes are never read here, only measured). */
function seedSqlite() {
  const seeded = tempSqlite("consign-settings-store-");
  const { db } = seeded;
  const workspace = db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)");
  workspace.run("ws", "Studio Ölm", T0);
  workspace.run("ws2", "Zweite", T0);
  db.prepare(
    "INSERT INTO workspace_logos (workspace_id, png, width, height, updated_at) VALUES ('ws2', ?, 600, 100, ?)",
  ).run(Buffer.alloc(LOGO_BYTES, 7), T0 + 5);
  return seeded;
}

function sqliteEngine(): () => SettingsStore {
  let seeded: ReturnType<typeof seedSqlite>;
  beforeAll(() => {
    seeded = seedSqlite();
  });
  afterAll(() => seeded.close());
  return () => new SqliteSettingsStore(seeded.db);
}

/** The same rows moved from an identically seeded SQLite file, in an en-US database. */
function postgresEngine(): () => SettingsStore {
  const pool = freshPgDatabase({ locale: "en-US" });
  let store: PgSettingsStore;
  beforeAll(async () => {
    const source = seedSqlite();
    await moveRows(source.db, pool());
    source.close();
    store = new PgSettingsStore(pool());
  });
  return () => store;
}

const LOGO = {
  mimeType: "image/png",
  width: 600,
  height: 100,
  sizeBytes: LOGO_BYTES,
  updatedAt: new Date(T0 + 5).toISOString(),
};

describe.each([
  { engine: "SQLite", use: sqliteEngine },
  { engine: "PostgreSQL", use: postgresEngine },
])("the settings store on $engine", ({ use }) => {
  const open = use();

  it("reads a workspace's name and its logo's measures", async () => {
    const store = open();
    expect(await store.getWorkspaceSettings("ws")).toEqual({ name: "Studio Ölm", logo: null });
    expect(await store.getWorkspaceSettings("ws2")).toEqual({ name: "Zweite", logo: LOGO });
    expect(await store.getWorkspaceSettings("nowhere")).toEqual({ name: "", logo: null });
  });

  it("renames one workspace, keeping its logo and every character of the name", async () => {
    const store = open();
    const name = "Ñandú Post — 東京 🎬";
    expect(await store.updateWorkspaceSettings("ws2", { name })).toEqual({ name, logo: LOGO });
    expect(await store.getWorkspaceSettings("ws2")).toEqual({ name, logo: LOGO });
    expect((await store.getWorkspaceSettings("ws")).name).toBe("Studio Ölm");
    expect(await store.updateWorkspaceSettings("ws", { name: "a" })).toEqual({
      name: "a",
      logo: null,
    });
  });
});
