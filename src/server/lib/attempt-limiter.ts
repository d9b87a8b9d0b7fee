import { createHash } from "node:crypto";
import {
  SHARE_PASSWORD_FREE_TRIES,
  SHARE_PASSWORD_MAX_DELAY_SECONDS,
  SHARE_PASSWORD_TARGET_CEILING,
  SHARE_PASSWORD_WINDOW_SECONDS,
} from "@/contract/rules";
import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
import { ApiError } from "./api-error";
import type { Clock } from "./clock";

/*
 * The slow-down of password guessing, one rule for a share's, a portal's and protected
 * content's password (docs/api-decisions.md, Shares and receipts, Password). Tries live in
 * the database (an AttemptStore), so every process on it counts the same ones. A try is claimed
 * in one write transaction BEFORE the password is hashed, and counts as a wrong one until its
 * check says it was right: guesses sent at once get the free tries' worth of checks, not one
 * each, and a right password sent among them waits like any other.
 */

export type AttemptKind = "share" | "portal" | "content";

export interface Attempt {
  kind: AttemptKind;
  /** What the password opens: a share's or portal's id, a protected transfer's salt. */
  target: string;
  address: string;
  password: string;
}

export interface AttemptVerdict {
  ok: boolean;
  /** Wrong tries the address has left before each must wait. */
  triesBeforeDelay: number;
}

export const ATTEMPT_WINDOW_MS = SHARE_PASSWORD_WINDOW_SECONDS * 1000;

/** Where tries are counted: one call per unit of work (access-store.ts has both engines). */
export interface AttemptStore {
  /**
   * Forgets the target's tries older than the window, refuses with 429 `rate_limited` while
   * the address or the target must wait (`refuseWhileSlowed`), else records the try. One
   * transaction, which no other claim on the same target can interleave with, from any process.
   * `tries`: the address's tries in the window before this one.
   */
  claimAttempt(a: Omit<Attempt, "password">, now: number): Promise<{ id: number; tries: number }>;
  /** A right password's try, given back. */
  giveBackAttempt(id: number): Promise<void>;
}

/**
 * The same guess from the same address, in flight in this process: one check answers all of
 * them (an engine's parallel requests each carry the content password).
 */
const inFlight = new Map<string, Promise<AttemptVerdict>>();

/**
 * Claims a try (429 `rate_limited` with `retryAfterSeconds` when the address or the target
 * must wait), then runs `check`, which hashes the password. A right password gives its try
 * back; a wrong one keeps it, as does a check that throws.
 */
export async function tryPassword(
  deps: { accessStore: AttemptStore; clock: Clock },
  a: Attempt,
  check: () => Promise<boolean>,
): Promise<AttemptVerdict> {
  // The same guess joins the one in flight before anything is awaited; SQLite's claim runs
  // synchronously at the call, so no other try comes between it and this one.
  const same = createHash("sha256")
    .update([a.kind, a.target, a.address, a.password].join("\0"))
    .digest("base64");
  const joined = inFlight.get(same);
  if (joined) return joined;
  const store = deps.accessStore;
  const verdict = store
    .claimAttempt(a, deps.clock.now())
    .then(async (claimed) => {
      const ok = await check();
      if (ok) await store.giveBackAttempt(claimed.id);
      return { ok, triesBeforeDelay: Math.max(0, SHARE_PASSWORD_FREE_TRIES - claimed.tries - 1) };
    })
    .finally(() => inFlight.delete(same));
  inFlight.set(same, verdict);
  return verdict;
}

export interface Recent {
  count: number;
  /** The address's latest try, or the target's oldest. */
  at: number | null;
}

/** SQLite's claim (AttemptStore.claimAttempt): BEGIN IMMEDIATE holds off every other writer. */
export function claimAttemptSqlite(db: Db, a: Omit<Attempt, "password">, now: number) {
  return db
    .transaction(() => {
      stmt(db, "DELETE FROM password_attempts WHERE kind = ? AND target = ? AND at < ?").run(
        a.kind,
        a.target,
        now - ATTEMPT_WINDOW_MS,
      );
      const target = stmt<[string, string], Recent>(
        db,
        "SELECT count(*) AS count, min(at) AS at FROM password_attempts WHERE kind = ? AND target = ?",
      ).get(a.kind, a.target)!;
      const mine = stmt<[string, string, string], Recent>(
        db,
        `SELECT count(*) AS count, max(at) AS at FROM password_attempts
         WHERE kind = ? AND target = ? AND address = ?`,
      ).get(a.kind, a.target, a.address)!;
      refuseWhileSlowed(mine, target, now);
      const { lastInsertRowid } = stmt(
        db,
        "INSERT INTO password_attempts (kind, target, address, at) VALUES (?, ?, ?, ?)",
      ).run(a.kind, a.target, a.address, now);
      return { id: Number(lastInsertRowid), tries: mine.count };
    })
    .immediate();
}

export const giveBackAttemptSqlite = (db: Db, id: number) => {
  stmt(db, "DELETE FROM password_attempts WHERE id = ?").run(id);
};

/**
 * From one address, the first SHARE_PASSWORD_FREE_TRIES tries within the window cost nothing;
 * after that a try waits 1 s, then 2, 4… (at most SHARE_PASSWORD_MAX_DELAY_SECONDS) after the
 * address's last one. Once the target has SHARE_PASSWORD_TARGET_CEILING tries in the window,
 * from all addresses together, every try waits until the oldest leaves it.
 */
export function refuseWhileSlowed(mine: Recent, target: Recent, now: number) {
  let addressWait = 0;
  if (mine.count >= SHARE_PASSWORD_FREE_TRIES && mine.at !== null) {
    const delay = Math.min(
      2 ** (mine.count - SHARE_PASSWORD_FREE_TRIES),
      SHARE_PASSWORD_MAX_DELAY_SECONDS,
    );
    addressWait = mine.at + delay * 1000 - now;
  }
  const targetWait =
    target.count >= SHARE_PASSWORD_TARGET_CEILING && target.at !== null
      ? target.at + ATTEMPT_WINDOW_MS - now
      : 0;
  const waitMs = Math.max(addressWait, targetWait);
  if (waitMs <= 0) return;
  const per = targetWait >= addressWait ? "target" : "address";
  throw new ApiError(
    429,
    "rate_limited",
    per === "address"
      ? "Too many wrong passwords from this address: wait before trying again"
      : "Too many wrong passwords from all addresses: wait before trying again",
    {
      retryAfterSeconds: Math.ceil(waitMs / 1000),
      per,
      limit: per === "address" ? SHARE_PASSWORD_FREE_TRIES : SHARE_PASSWORD_TARGET_CEILING,
      windowSeconds: SHARE_PASSWORD_WINDOW_SECONDS,
    },
  );
}
