import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limit";

describe("RateLimiter", () => {
  it("allows exactly the limit in any window, and counts down the allowance", () => {
    const limiter = new RateLimiter(3, 60_000);
    expect(limiter.take("k", 0)).toMatchObject({ allowed: true, remaining: 2 });
    expect(limiter.take("k", 10_000)).toMatchObject({ allowed: true, remaining: 1 });
    expect(limiter.take("k", 20_000)).toMatchObject({ allowed: true, remaining: 0 });
    // The first request leaves the window at 60 s: 30 s to wait at 30 s.
    expect(limiter.take("k", 30_000)).toMatchObject({
      allowed: false,
      retryAfterSeconds: 30,
      resetSeconds: 50,
    });
    expect(limiter.take("k", 59_999).allowed).toBe(false);
    expect(limiter.take("k", 60_000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.take("k", 60_001).allowed).toBe(false);
    // Keys do not share an allowance.
    expect(limiter.take("other", 60_001)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it("slides: a refused request does not count, and a quiet spell restores the whole allowance", () => {
    const limiter = new RateLimiter(2, 1000);
    limiter.take("k", 0);
    limiter.take("k", 500);
    for (let t = 600; t < 1000; t += 100) expect(limiter.take("k", t).allowed).toBe(false);
    expect(limiter.take("k", 1000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.take("k", 5000)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 1 });
  });

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
