import {
  type Cipher,
  createCipheriv,
  createHmac,
  randomBytes,
  scrypt,
  timingSafeEqual,
} from "node:crypto";
import { ApiError } from "@/server/lib/api-error";
import { tryPassword } from "@/server/lib/attempt-limiter";
import type { NodeDeps } from "./node-deps";

/**
 * Content protection (docs/data-node.md): a file of a protected transfer is stored encrypted
 * with AES-256-CTR under a key derived from the engine's password with scrypt and the transfer's
 * salt. CTR keeps the stored size equal to the plaintext's and lets a Range read decrypt from
 * any offset. Each file has its own random IV. The password is never stored: `keyCheck` (an
 * HMAC of a fixed label under the key) tells a wrong password from a right one.
 */
export interface Protection {
  alg: "aes-256-ctr";
  /** The transfer's salt, as the service wrote it (used as text). */
  salt: string;
  /** hex, 16 bytes: the first counter block */
  iv: string;
  /** hex */
  keyCheck: string;
  /** The plaintext's SHA-256 and size (the listing shows these too). */
  sha256: string;
  size: number;
}

const KEY_CHECK_LABEL = "consign content protection key check";
const keys = new Map<string, Promise<Buffer>>();

/** scrypt(password, salt); remembered for the process, since every chunk request needs it. */
export function deriveKey(password: string, salt: string): Promise<Buffer> {
  const id = `${salt}\u0000${password}`;
  let key = keys.get(id);
  if (!key) {
    key = new Promise((resolve, reject) =>
      scrypt(password, salt, 32, (err, k) => (err ? reject(err) : resolve(k))),
    );
    if (keys.size > 1000) keys.clear();
    keys.set(id, key);
  }
  return key;
}

/**
 * The key a request's password gives for `salt`, checked against the transfer's `keyCheck`
 * under the password slow-down (lib/attempt-limiter.ts), per protected transfer (its salt) and
 * address: 429 `rate_limited` before scrypt runs, 403 `wrong_content_password`. Without a
 * `keyCheck` (no file of the transfer stored yet) there is nothing to guess: the first file's
 * key becomes the transfer's.
 */
export async function unlockContent(
  deps: Pick<NodeDeps, "accessStore" | "clock">,
  a: { salt: string; keyCheck: string | null; password: string; address: string },
): Promise<Buffer> {
  const { keyCheck } = a;
  if (keyCheck !== null) {
    const verdict = await tryPassword(
      deps,
      { kind: "content", target: a.salt, address: a.address, password: a.password },
      async () => sameKey(await deriveKey(a.password, a.salt), keyCheck),
    );
    if (!verdict.ok) throw wrongPassword();
  }
  return deriveKey(a.password, a.salt);
}

export const keyCheckOf = (key: Buffer) =>
  createHmac("sha256", key).update(KEY_CHECK_LABEL).digest("hex");

export function sameKey(key: Buffer, keyCheck: string) {
  const a = Buffer.from(keyCheckOf(key), "hex");
  const b = Buffer.from(keyCheck, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

export const newIv = () => randomBytes(16).toString("hex");

/** An AES-256-CTR stream positioned at byte `offset` (encryption and decryption are one). */
export function ctrAt(key: Buffer, ivHex: string, offset: number): Cipher {
  const iv = Buffer.from(ivHex, "hex");
  // The counter is the IV as a 128-bit big-endian number plus the block index.
  let carry = BigInt(Math.floor(offset / 16));
  for (let i = 15; i >= 0 && carry > 0n; i--) {
    const sum = BigInt(iv[i]!) + (carry & 0xffn);
    iv[i] = Number(sum & 0xffn);
    carry = (carry >> 8n) + (sum >> 8n);
  }
  const cipher = createCipheriv("aes-256-ctr", key, iv);
  const skip = offset % 16;
  if (skip) cipher.update(Buffer.alloc(skip));
  return cipher;
}

export const passwordRequired = () =>
  new ApiError(401, "unauthenticated", "This content is protected: send its password", {
    reason: "content_password_required",
    header: "Consign-Content-Password",
  });

export const wrongPassword = () =>
  new ApiError(403, "forbidden", "The content password is wrong", {
    reason: "wrong_content_password",
  });

/** The content's stored name: encrypted bytes never take the place of a plain copy. */
export const storedName = (sha256: string, protection: Pick<Protection, "iv"> | null) =>
  protection ? `${sha256}.${protection.iv}` : sha256;
