import { randomBytes, scrypt as scryptCb, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { ApiError } from "./api-error";

/*
 * Passwords that guard a link (a share, a portal): kept as scrypt hashes, and guessing slowed
 * down per address. Each caller keeps its own log of wrong tries; the rule is the same.
 */

const scrypt = promisify(scryptCb) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;
const KDF = { N: 16_384, r: 8, p: 1, keylen: 32 };

/** `scrypt$N$r$p$salt$hash` (base64): a slow KDF, so a stolen database does not give passwords up. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, KDF.keylen, { ...KDF, maxmem: 64 * 1024 * 1024 });
  return `scrypt$${KDF.N}$${KDF.r}$${KDF.p}$${salt.toString("base64")}$${hash.toString("base64")}`;
}

export async function passwordMatches(stored: string, password: string) {
  const [, n, r, p, salt, hash] = stored.split("$");
  const expected = Buffer.from(hash!, "base64");
  const actual = await scrypt(password, Buffer.from(salt!, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return timingSafeEqual(actual, expected);
}

export interface GuessRule {
  freeTries: number;
  windowSeconds: number;
  maxDelaySeconds: number;
}

/**
 * After `freeTries` wrong passwords from one address within the window, a try must wait 1 s,
 * then 2, 4… (at most `maxDelaySeconds`) after the last wrong one: 429 `rate_limited` with
 * `retryAfterSeconds`, before the password is even looked at.
 */
export function refuseWhileSlowed(
  rule: GuessRule,
  recent: { count: number; last: number | null },
  now: number,
) {
  if (recent.count < rule.freeTries || recent.last === null) return;
  const delay = Math.min(2 ** (recent.count - rule.freeTries), rule.maxDelaySeconds);
  const waitMs = recent.last + delay * 1000 - now;
  if (waitMs > 0)
    throw new ApiError(429, "rate_limited", "Too many wrong passwords: wait before trying again", {
      retryAfterSeconds: Math.ceil(waitMs / 1000),
      limit: rule.freeTries,
      windowSeconds: rule.windowSeconds,
    });
}

export const wrongPassword = (rule: GuessRule, recent: { count: number }) =>
  new ApiError(403, "forbidden", "That password is not right", {
    reason: "wrong_password",
    triesBeforeDelay: Math.max(0, rule.freeTries - recent.count - 1),
  });
