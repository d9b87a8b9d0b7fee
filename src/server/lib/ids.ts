import { randomBytes, randomInt } from "node:crypto";

// Crockford base32, lowercase: ids sort by creation time and match ^[a-z0-9]{10,40}$.
const B32 = "0123456789abcdefghjkmnpqrstvwxyz";
let lastTime = -1;
let lastRandom: number[] = [];

function encodeTime(ms: number) {
  let out = "";
  for (let i = 0; i < 10; i++) {
    out = B32[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

/**
 * A 26-character ULID-style id. Within one millisecond the random part is incremented, so
 * ids made by one process are strictly increasing (the event stream's cursor relies on it).
 */
export function newId(now = Date.now()): string {
  if (now <= lastTime) {
    for (let i = lastRandom.length - 1; i >= 0; i--) {
      if (lastRandom[i]! < 31) {
        lastRandom[i]!++;
        break;
      }
      lastRandom[i] = 0;
    }
    now = lastTime;
  } else {
    lastTime = now;
    lastRandom = Array.from(randomBytes(16), (b) => b % 32);
  }
  return encodeTime(now) + lastRandom.map((n) => B32[n]).join("");
}

const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** Uniformly random base62 text, for keys and secrets. */
export function randomBase62(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += B62[randomInt(62)];
  return out;
}
