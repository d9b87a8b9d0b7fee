import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHARE_PASSWORD_FREE_TRIES, SHARE_PASSWORD_TARGET_CEILING } from "@/contract/rules";
import { createPgPool, type PgPool } from "@/server/db/pg/pool";
import { ApiError } from "@/server/lib/api-error";
import { createPgDatabase } from "@/server/testing/pg-database";
import { PgAccessStore } from "./access-store.pg";

// PostgreSQL only: SQLite's BEGIN IMMEDIATE already runs one claim at a time, across processes.
describe("password tries on PostgreSQL from two processes", () => {
  let db: Awaited<ReturnType<typeof createPgDatabase>>;
  let other: PgPool;
  let stores: PgAccessStore[];
  beforeAll(async () => {
    db = await createPgDatabase();
    other = createPgPool(db.url);
    stores = [new PgAccessStore(db.pool), new PgAccessStore(other)];
    // Every connection open before the race, so the claims meet in the database, not in connect().
    for (const pool of [db.pool, other]) {
      const clients = await Promise.all(Array.from({ length: 10 }, () => pool.connect()));
      for (const c of clients) c.release();
    }
  });
  afterAll(async () => {
    await other.end();
    await db.drop();
  });

  const now = Date.parse("2026-03-01T09:00:00Z");

  /** `n` claims at once, alternating between the two pools; the refusals must all be 429s. */
  async function claimAtOnce(n: number, target: string, address: (i: number) => string) {
    const outcomes = await Promise.allSettled(
      Array.from({ length: n }, (_, i) =>
        stores[i % 2]!.claimAttempt({ kind: "share", target, address: address(i) }, now),
      ),
    );
    for (const o of outcomes) {
      if (o.status === "rejected") {
        expect(o.reason).toBeInstanceOf(ApiError);
        expect((o.reason as ApiError).status).toBe(429);
      }
    }
    const { rows } = await db.pool.query(
      "SELECT count(*)::int AS n FROM password_attempts WHERE target = $1",
      [target],
    );
    return { taken: outcomes.filter((o) => o.status === "fulfilled").length, rows: rows[0].n };
  }

  it("gives one address its free tries and no more, however many arrive at once", async () => {
    expect(await claimAtOnce(40, "shr_address", () => "203.0.113.9")).toEqual({
      taken: SHARE_PASSWORD_FREE_TRIES,
      rows: SHARE_PASSWORD_FREE_TRIES,
    });
  });

  it("holds a target to its ceiling across addresses, however many arrive at once", async () => {
    expect(await claimAtOnce(90, "shr_target", (i) => `198.51.100.${i}`)).toEqual({
      taken: SHARE_PASSWORD_TARGET_CEILING,
      rows: SHARE_PASSWORD_TARGET_CEILING,
    });
  });
});
