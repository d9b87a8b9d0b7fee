import { randomBytes, scrypt as scryptCb, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { ApiError } from "./api-error";

/*
 * Passwords that guard a link (a share, a portal): kept as scrypt hashes. Guessing is slowed
 * down by lib/attempt-limiter.ts.
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

/** A wrong password (share, portal): 403, with the tries left before the slow-down begins. */
export const wrongPassword = (triesBeforeDelay: number) =>
  new ApiError(403, "forbidden", "That password is not right", {
    reason: "wrong_password",
    triesBeforeDelay,
  });
