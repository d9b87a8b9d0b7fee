import { parseSignatureHeader, SIGNATURE_TOLERANCE_SECONDS } from "@/contract/rules";

export type SignatureCheck =
  | { outcome: "valid"; ageSeconds: number; tooOld: boolean }
  | { outcome: "invalid"; ageSeconds: number; tooOld: boolean }
  | { outcome: "malformed" };

const encoder = new TextEncoder();

async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Compares without stopping at the first difference, as a receiver should. */
function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Verifies a `Service-Signature` header the way a receiver does: HMAC-SHA256 of
 * `<t>.<rawBody>` keyed with the whole secret, against any `v1`. The age is reported apart
 * from the match so that a person can tell "wrong secret" from "replayed later".
 */
export async function verifySignature(input: {
  secret: string;
  header: string;
  rawBody: string;
  nowSeconds?: number;
}): Promise<SignatureCheck> {
  const parsed = parseSignatureHeader(input.header);
  if (!parsed) return { outcome: "malformed" };
  const expected = await hmacHex(input.secret, `${parsed.t}.${input.rawBody}`);
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  const ageSeconds = now - parsed.t;
  const tooOld = Math.abs(ageSeconds) > SIGNATURE_TOLERANCE_SECONDS;
  const valid = parsed.v1.some((v) => sameHex(v, expected));
  return { outcome: valid ? "valid" : "invalid", ageSeconds, tooOld };
}
