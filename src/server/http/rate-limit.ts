export interface RateVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  windowSeconds: number;
  /** Seconds until a request is allowed again (0 when allowed). */
  retryAfterSeconds: number;
  /** Seconds until the allowance is whole again. */
  resetSeconds: number;
}

/**
 * A sliding-window log per key: a request is allowed when fewer than `limit` accepted
 * requests fall within the last `windowMs`. Exact, unlike fixed windows, which let twice
 * the limit through across a boundary. Memory is one ring of `limit` timestamps per key,
 * used as a queue: times leave from the head as they fall out of the window, so a request
 * costs O(1) amortized whatever the limit.
 */
export class RateLimiter {
  private rings = new Map<string, { times: Float64Array; head: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  take(key: string, now: number): RateVerdict {
    let ring = this.rings.get(key);
    if (!ring) {
      ring = { times: new Float64Array(this.limit), head: 0, count: 0 };
      this.rings.set(key, ring);
    }
    while (ring.count > 0 && now - ring.times[ring.head]! >= this.windowMs) {
      ring.head = (ring.head + 1) % this.limit;
      ring.count--;
    }
    const windowSeconds = Math.round(this.windowMs / 1000);
    if (ring.count >= this.limit) {
      const oldest = ring.times[ring.head]!;
      const newest = ring.times[(ring.head + ring.count - 1) % this.limit]!;
      return {
        allowed: false,
        limit: this.limit,
        remaining: 0,
        windowSeconds,
        retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)),
        resetSeconds: Math.max(1, Math.ceil((newest + this.windowMs - now) / 1000)),
      };
    }
    ring.times[(ring.head + ring.count) % this.limit] = now;
    ring.count++;
    return {
      allowed: true,
      limit: this.limit,
      remaining: this.limit - ring.count,
      windowSeconds,
      retryAfterSeconds: 0,
      resetSeconds: Math.ceil((ring.times[ring.head]! + this.windowMs - now) / 1000),
    };
  }
}
