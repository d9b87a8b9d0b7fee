import { describe, expect, it } from "vitest";
import { renameBatchBodySchema } from "@/contract/operations";
import { ManualClock } from "@/server/lib/clock";
import { PgEventRecorder } from "@/server/modules/events/events.pg";
import { PgFilesStore } from "@/server/modules/files/files-store.pg";
import { seedSqlite, T0, WS } from "@/server/modules/files/files-store.seed";
import { refusal } from "@/server/testing/engine-suites";
import { pgFromSqlite } from "@/server/testing/pg-database";

const RACES = 10;

// PostgreSQL only: SQLite's BEGIN IMMEDIATE already runs one writer at a time.
describe("batch renames on PostgreSQL from two processes", () => {
  let config: ReturnType<typeof seedSqlite>["config"];
  const pools = pgFromSqlite(() => {
    const source = seedSqlite();
    config = source.config;
    for (let i = 0; i < RACES; i++) {
      source.files.createFolder(WS, `race/d${i}/x`);
      source.files.createFolder(WS, `race/d${i}/z`);
    }
    return source;
  });

  it("refuses the second of two racing applies in one folder with plan_stale, under the workspace's lock", async () => {
    const clock = new ManualClock(T0);
    const { pool, other } = pools();
    const [a, b] = [pool, other].map(
      (p) => new PgFilesStore(p, clock, new PgEventRecorder(clock), config),
    );
    const planned = (store: PgFilesStore, path: string) => async () => {
      const body = { paths: [path], pattern: { suffix: "-y" } };
      const dry = await store.renameBatch(
        WS,
        renameBatchBodySchema.parse({ ...body, dryRun: true }),
      );
      return renameBatchBodySchema.parse({ ...body, planId: dry.planId });
    };
    // Two plans over the same folder, each made before either runs: whichever runs second
    // reads the folder's new revision, so it must read it after the first's commit.
    const outcomes = await Promise.all(
      Array.from({ length: RACES }, async (_, i) => {
        const x = await planned(a!, `race/d${i}/x`)();
        const z = await planned(b!, `race/d${i}/z`)();
        return Promise.allSettled([a!.renameBatch(WS, x), b!.renameBatch(WS, z)]);
      }),
    );
    for (const pair of outcomes) {
      expect(pair.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      const lost = pair.find((o) => o.status === "rejected")!;
      const err = await refusal(Promise.reject(lost.reason));
      expect(err.details).toMatchObject({ issues: [{ field: "planId", code: "plan_stale" }] });
    }
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM entries WHERE path LIKE 'race/d%/%-y'",
    );
    expect(rows[0]!.n).toBe(RACES);
  });
});
