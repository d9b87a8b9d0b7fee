import { createHash, timingSafeEqual } from "node:crypto";

/** Keys carry 190+ bits of entropy, so a fast hash is enough; a slow KDF would only slow every request. */
export const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");

export function safeEqual(a: string, b: string) {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
