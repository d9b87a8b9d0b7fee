import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { writePrivateFile } from "./private-files";
import { safeEqual } from "./secrets";

/*
 * Access tokens for pages without a key (a share's recipient page, a portal's page): what a
 * right password buys, `{expiresAtMs}.{HMAC-SHA256(key, subject, expiresAtMs)}`. The key is 32
 * random bytes in DATA_DIR/<file> (made on first use, 0600): nothing is stored per visit,
 * tokens survive a restart, and deleting the file signs everyone out.
 */

const keys = new Map<string, Buffer>();
function keyOf(dataDir: string, file: string) {
  const at = path.join(dataDir, file);
  let key = keys.get(at);
  if (!key) {
    try {
      writePrivateFile(at, randomBytes(32), { exclusive: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    key = fs.readFileSync(at);
    keys.set(at, key);
  }
  return key;
}

const sign = (key: Buffer, subject: string, expiresAt: number) =>
  createHmac("sha256", key).update(`${subject}\n${expiresAt}`).digest("base64url");

export interface AccessKey {
  dataDir: string;
  /** The key's file in the data dir, one per kind of page. */
  file: string;
}

export function issueAccessToken(k: AccessKey, subject: string, expiresAt: number) {
  return `${expiresAt}.${sign(keyOf(k.dataDir, k.file), subject, expiresAt)}`;
}

/** Whether a token was issued for this subject and has not expired. */
export function validAccessToken(
  k: AccessKey,
  subject: string,
  token: string | undefined,
  now: number,
) {
  const [exp, sig] = (token ?? "").split(".");
  const expiresAt = Number(exp);
  if (!sig || !Number.isSafeInteger(expiresAt) || expiresAt <= now) return false;
  return safeEqual(sig, sign(keyOf(k.dataDir, k.file), subject, expiresAt));
}
