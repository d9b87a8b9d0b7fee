import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPgDatabase } from "@/server/testing/pg-database";
import { createTestApp, type TestApp } from "@/server/testing/test-app";
import { moveRows } from "./move-rows";

// PostgreSQL only: the embedded install's rows moved into the scale-out profile's database.
describe("moveRows", () => {
  let t: TestApp;
  let pg: Awaited<ReturnType<typeof createPgDatabase>>;

  beforeEach(async () => {
    t = await createTestApp();
    pg = await createPgDatabase();
    // Rows of many kinds: folders and files with versions, a share, a webhook endpoint, events,
    // a logo (bytes), an odd path (order and bytes must survive).
    for (const p of ["B/ä x.txt", "a/one.txt", "a/one.txt", "Z"]) {
      await t.deps.files.writeFile(t.workspaceId, p, `content of ${p} ${Math.random()}`);
    }
    const hook = await t.call("POST", t.w("/webhooks"), {
      body: { url: "https://hooks.example.com/in", events: ["file.created"] },
    });
    expect(hook.status).toBe(201);
    const share = await t.call("POST", t.w("/shares"), {
      body: { paths: ["a/one.txt"], expiresInDays: 3 },
    });
    expect(share.status).toBe(201);
    t.deps.db
      .prepare(
        "INSERT INTO workspace_logos (workspace_id, png, width, height, updated_at) VALUES (?, ?, 1, 1, 1)",
      )
      .run(t.workspaceId, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]));
  });
  afterEach(async () => {
    await t.close();
    await pg.drop();
  });

  it("copies every table whole and checks each one's count and SHA-256", async () => {
    const report = await moveRows(t.deps.db, pg.pool);
    const rows = Object.fromEntries(report.map((r) => [r.table, r.rows]));
    expect(rows).toMatchObject({
      workspaces: 1,
      shares: 1,
      webhook_endpoints: 1,
      workspace_logos: 1,
    });
    expect(rows.entries).toBeGreaterThanOrEqual(6);
    expect(rows.file_versions).toBeGreaterThanOrEqual(1);
    expect(rows.events).toBeGreaterThan(0);
    const sqliteEntries = t.deps.db.prepare("SELECT count(*) FROM entries").pluck().get();
    expect(rows.entries).toBe(sqliteEntries);
    // PostgreSQL numbers new rows after the moved ones, not over them.
    const next = await pg.pool.query<{ id: number }>(
      "INSERT INTO usage_records (usage_id, workspace_id, transfer_id, direction, bytes, recorded_at) VALUES ('u', 'w', 't', 'send', 1, 1) RETURNING id",
    );
    const maxEntry = t.deps.db.prepare("SELECT max(id) FROM usage_records").pluck().get() as
      | number
      | null;
    expect(next.rows[0]!.id).toBeGreaterThan(maxEntry ?? 0);
    const logo = await pg.pool.query<{ png: Buffer }>("SELECT png FROM workspace_logos");
    expect([...logo.rows[0]!.png]).toEqual([0x89, 0x50, 0x4e, 0x47, 0, 255]);
  });

  it("refuses a target that already holds rows, and leaves it as it was", async () => {
    await moveRows(t.deps.db, pg.pool);
    await expect(moveRows(t.deps.db, pg.pool)).rejects.toThrow(/not empty/);
    const { rows } = await pg.pool.query<{ n: number }>("SELECT count(*) AS n FROM workspaces");
    expect(rows[0]!.n).toBe(1);
  });

  it("fails, naming the table, when what arrived differs from what was sent", async () => {
    // A target that changes a value on the way in (as a wrong encoding or collation would).
    await pg.pool.query(`
      CREATE FUNCTION shout() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN NEW.name := upper(NEW.name); RETURN NEW; END $$;
      CREATE TRIGGER shout BEFORE INSERT ON workspaces FOR EACH ROW EXECUTE FUNCTION shout();`);
    await expect(moveRows(t.deps.db, pg.pool)).rejects.toThrow("the copy differs in workspaces");
    // Nothing half-written: the target is as empty as before, ready for another try.
    const { rows } = await pg.pool.query<{ n: number }>("SELECT count(*) AS n FROM entries");
    expect(rows[0]!.n).toBe(0);
  });
});
