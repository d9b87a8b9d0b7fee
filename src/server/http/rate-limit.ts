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

/** What the limit needs of a key's window: its accepted requests, oldest and newest. */
export interface WindowState {
  allowed: boolean;
  /** Accepted requests in the window, this one included when allowed. */
  count: number;
  oldest: number;
  newest: number;
}

/** One rule for the headers and the 429, whichever store keeps the windows. */
export function rateVerdict(
  limit: number,
  windowMs: number,
  now: number,
  w: WindowState,
): RateVerdict {
  const windowSeconds = Math.round(windowMs / 1000);
  if (!w.allowed) {
    return {
      allowed: false,
      limit,
      remaining: 0,
      windowSeconds,
      retryAfterSeconds: Math.max(1, Math.ceil((w.oldest + windowMs - now) / 1000)),
      resetSeconds: Math.max(1, Math.ceil((w.newest + windowMs - now) / 1000)),
    };
  }
  return {
    allowed: true,
    limit,
    remaining: limit - w.count,
    windowSeconds,
    retryAfterSeconds: 0,
    resetSeconds: Math.ceil((w.oldest + windowMs - now) / 1000),
  };
}

/**
 * Where the windows live: this process's memory (one process, the embedded default), or the
 * database when several processes serve one API (rate-limit.pg.ts), so a key's allowance holds
 * whichever process a request reaches.
 */
export interface RateLimitStore {
  readonly limit: number;
  readonly windowMs: number;
  take(key: string, now: number): RateVerdict | Promise<RateVerdict>;
}

/**
 * A sliding-window log per key: a request is allowed when fewer than `limit` accepted
 * requests fall within the last `windowMs`. Exact, unlike fixed windows, which let twice
 * the limit through across a boundary. Memory is one ring of `limit` timestamps per key,
 * used as a queue: times leave from the head as they fall out of the window, so a request
 * costs O(1) amortized whatever the limit. Once a window, the rings with nothing left in it
 * are dropped (a key seen again starts whole, as it would anyway), so memory follows the keys
 * seen in the last window, not every key ever seen: client addresses are unbounded.
 */
export class RateLimiter implements RateLimitStore {
  private rings = new Map<string, { times: Float64Array; head: number; count: number }>();
  private sweptAt = Number.NEGATIVE_INFINITY;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  take(key: string, now: number): RateVerdict {
    if (now - this.sweptAt >= this.windowMs) this.sweep(now);
    let ring = this.rings.get(key);
    if (!ring) {
      ring = { times: new Float64Array(this.limit), head: 0, count: 0 };
      this.rings.set(key, ring);
    }
    while (ring.count > 0 && now - ring.times[ring.head]! >= this.windowMs) {
      ring.head = (ring.head + 1) % this.limit;
      ring.count--;
    }
    const at = (i: number) => ring.times[(ring.head + i) % this.limit]!;
    if (ring.count >= this.limit) {
      return rateVerdict(this.limit, this.windowMs, now, {
        allowed: false,
        count: ring.count,
        oldest: at(0),
        newest: at(ring.count - 1),
      });
    }
    ring.times[(ring.head + ring.count) % this.limit] = now;
    ring.count++;
    return rateVerdict(this.limit, this.windowMs, now, {
      allowed: true,
      count: ring.count,
      oldest: at(0),
      newest: now,
    });
  }

  /** How many keys are tracked. */
  get size() {
    return this.rings.size;
  }

  private sweep(now: number) {
    this.sweptAt = now;
    for (const [key, ring] of this.rings) {
      const newest = ring.count > 0 ? ring.times[(ring.head + ring.count - 1) % this.limit]! : 0;
      if (ring.count === 0 || now - newest >= this.windowMs) this.rings.delete(key);
    }
  }
}
