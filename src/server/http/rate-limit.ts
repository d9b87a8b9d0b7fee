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
 * the limit through across a boundary. Memory is one ring of `limit` timestamps per key.
 */
export class RateLimiter {
  private rings = new Map<string, { times: Float64Array; next: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  take(key: string, now: number): RateVerdict {
    let ring = this.rings.get(key);
    if (!ring) {
      ring = { times: new Float64Array(this.limit), next: 0, count: 0 };
      this.rings.set(key, ring);
    }
    const windowSeconds = Math.round(this.windowMs / 1000);
    // The oldest accepted request still counted sits where the next one would be written.
    const oldest = ring.count < this.limit ? null : ring.times[ring.next]!;
    if (oldest !== null && now - oldest < this.windowMs) {
      const waitMs = oldest + this.windowMs - now;
      const newest = ring.times[(ring.next + this.limit - 1) % this.limit]!;
      return {
        allowed: false,
        limit: this.limit,
        remaining: 0,
        windowSeconds,
        retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
        resetSeconds: Math.max(1, Math.ceil((newest + this.windowMs - now) / 1000)),
      };
    }
    ring.times[ring.next] = now;
    ring.next = (ring.next + 1) % this.limit;
    ring.count = Math.min(ring.count + 1, this.limit);
    let inWindow = 0;
    let earliest = now;
    for (let i = 0; i < ring.count; i++) {
      const t = ring.times[i]!;
      if (now - t < this.windowMs) {
        inWindow++;
        if (t < earliest) earliest = t;
      }
    }
    return {
      allowed: true,
      limit: this.limit,
      remaining: this.limit - inWindow,
      windowSeconds,
      retryAfterSeconds: 0,
      resetSeconds: Math.ceil((earliest + this.windowMs - now) / 1000),
    };
  }
}
