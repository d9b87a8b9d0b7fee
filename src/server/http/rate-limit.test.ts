import { describe, expect, it } from "vitest";
import { createPgPool } from "@/server/db/pg/pool";
import { freshPgDatabase } from "@/server/testing/pg-database";
import { RateLimiter, type RateLimitStore } from "./rate-limit";
import { PgRateLimiter } from "./rate-limit.pg";

const pool = freshPgDatabase();
let limiters = 0;
const engines: [string, (limit: number, windowMs: number) => RateLimitStore][] = [
  ["memory", (limit, windowMs) => new RateLimiter(limit, windowMs)],
  ["PostgreSQL", (limit, windowMs) => new PgRateLimiter(pool(), `t${limiters++}`, limit, windowMs)],
];

describe.each(engines)("the rate limit (%s)", (_engine, make) => {
  it("allows exactly the limit in any window, and counts down the allowance", async () => {
    const limiter = make(3, 60_000);
    expect(await limiter.take("k", 0)).toMatchObject({ allowed: true, remaining: 2 });
    expect(await limiter.take("k", 10_000)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await limiter.take("k", 20_000)).toMatchObject({ allowed: true, remaining: 0 });
    // The first request leaves the window at 60 s: 30 s to wait at 30 s.
    expect(await limiter.take("k", 30_000)).toMatchObject({
      allowed: false,
      retryAfterSeconds: 30,
      resetSeconds: 50,
    });
    expect((await limiter.take("k", 59_999)).allowed).toBe(false);
    expect(await limiter.take("k", 60_000)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await limiter.take("k", 60_001)).allowed).toBe(false);
    // Keys do not share an allowance.
    expect(await limiter.take("other", 60_001)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it("slides: a refused request does not count, and a quiet spell restores the whole allowance", async () => {
    const limiter = make(2, 1000);
    await limiter.take("k", 0);
    await limiter.take("k", 500);
    for (let t = 600; t < 1000; t += 100) expect((await limiter.take("k", t)).allowed).toBe(false);
    expect(await limiter.take("k", 1000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.take("k", 5000)).toMatchObject({
      allowed: true,
      remaining: 1,
      resetSeconds: 1,
    });
  });
});

describe("RateLimiter (memory)", () => {
  it("forgets a key once a window has passed without it, so memory follows recent keys", () => {
    const limiter = new RateLimiter(2, 1000);
    for (let i = 0; i < 100; i++) limiter.take(`address-${i}`, 0);
    expect(limiter.size).toBe(100);
    limiter.take("k", 500);
    // At 1000 the first hundred have nothing left in the window; "k" still has its request.
    expect(limiter.take("k", 1000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.size).toBe(1);
    expect(limiter.take("k", 1001).allowed).toBe(false);
  });
});

// PostgreSQL only: what memory cannot do, one allowance across processes.
describe("PgRateLimiter across processes", () => {
  it("lets exactly the limit through when two processes take a key at once", async () => {
    const db = pool();
    const other = createPgPool((db.options as { connectionString: string }).connectionString);
    try {
      const a = new PgRateLimiter(db, "shared", 50, 60_000);
      const b = new PgRateLimiter(other, "shared", 50, 60_000);
      const verdicts = await Promise.all(
        Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).take("key", 1_000 + (i % 7))),
      );
      expect(verdicts.filter((v) => v.allowed)).toHaveLength(50);
      // Each allowed request saw its own count: no two were given the same slot.
      const left = verdicts.filter((v) => v.allowed).map((v) => v.remaining);
      expect(new Set(left).size).toBe(50);
    } finally {
      await other.end();
    }
  });
});
