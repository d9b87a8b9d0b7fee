import { createHmac } from "node:crypto";

/** Spec Signature: hex HMAC-SHA256 of `<t>.<rawBody>` keyed with the endpoint's secret. */
export function signatureHeader(secret: string, rawBody: string, unixSeconds: number): string {
  const v1 = createHmac("sha256", secret).update(`${unixSeconds}.${rawBody}`).digest("hex");
  return `t=${unixSeconds},v1=${v1}`;
}
