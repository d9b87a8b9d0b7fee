import type { PgPool } from "@/server/db/pg/pool";
import { type RateLimitStore, type RateVerdict, rateVerdict } from "./rate-limit";

/**
 * The sliding-window log of RateLimiter, kept in PostgreSQL so that every service process counts
 * a key's requests together (migration 0004, `rate_take`). The same rule, the same headers. Keys
 * are prefixed with the limit's name: the per-key and per-address windows are separate.
 */
export class PgRateLimiter implements RateLimitStore {
  private sweptAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly pool: PgPool,
    private readonly name: string,
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  async take(key: string, now: number): Promise<RateVerdict> {
    if (now - this.sweptAt >= this.windowMs) {
      this.sweptAt = now;
      // Rows a window has passed without a request hold nothing; any process may drop them.
      void this.pool
        .query("DELETE FROM rate_windows WHERE touched_at <= $1", [now - this.windowMs])
        .catch(() => {});
    }
    const { rows } = await this.pool.query<{
      allowed: boolean;
      used: number;
      oldest: number;
      newest: number;
    }>("SELECT * FROM rate_take($1, $2, $3, $4)", [
      `${this.name}:${key}`,
      now,
      this.windowMs,
      this.limit,
    ]);
    const r = rows[0]!;
    return rateVerdict(this.limit, this.windowMs, now, {
      allowed: r.allowed,
      count: r.used,
      oldest: r.oldest,
      newest: r.newest,
    });
  }
}
