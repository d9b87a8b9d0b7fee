import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bulkRouter } from "@/server/modules/bulk/bulk.index";
import { expectBody, okBody } from "@/server/testing/expect-body";
import { folderNames, listTrash, writeFile } from "@/server/testing/files-client";
import { createPgDatabase } from "@/server/testing/pg-database";
import { createTestApp, type TestApp } from "@/server/testing/test-app";

let pg: Awaited<ReturnType<typeof createPgDatabase>>;
let t: TestApp;
beforeAll(async () => {
  pg = await createPgDatabase();
  t = await createTestApp({ config: { databaseUrl: pg.url } });
});
afterAll(async () => {
  await t?.close();
  await pg.drop();
});

describe("DATABASE_URL (PostgreSQL only): the job queue runs on PostgreSQL, handlers on SQLite", () => {
  it("queues the recurring jobs and a bulk trash in PostgreSQL, runs them from there, and leaves SQLite's jobs table empty", async () => {
    await writeFile(t, "p/a.txt");
    await writeFile(t, "p/keep.txt");
    const bulk = t.client(bulkRouter).workspaces[":workspaceId"].files.bulk;
    const started = await expectBody(
      await bulk.$post({
        param: t.ws,
        json: { action: "trash", selection: { paths: ["p/a.txt"] } },
      }),
      201,
    );
    expect(await t.deps.jobs.runDue()).toBeGreaterThan(0);
    const done = await okBody(await bulk[":jobId"].$get({ param: { ...t.ws, jobId: started.id } }));
    expect(done).toMatchObject({ status: "completed", done: 1 });
    expect(await folderNames(t, "p")).toEqual(["keep.txt"]);
    expect((await listTrash(t)).map((i) => i.path)).toEqual(["p/a.txt"]);
    const pgJobs = await pg.pool.query(
      "SELECT kind, status FROM jobs WHERE kind = 'files.bulk' OR kind = 'files.purge' ORDER BY kind, status",
    );
    expect(pgJobs.rows).toEqual([
      { kind: "files.bulk", status: "done" },
      { kind: "files.purge", status: "done" },
      { kind: "files.purge", status: "queued" },
    ]);
    expect(t.deps.db.prepare("SELECT count(*) FROM jobs").pluck().get()).toBe(0);
  });
});
