import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifySignature } from "./signature";

const secret = `whsec_${"a1B2".repeat(8)}`;
const rawBody = '{"id":"01j","type":"webhook.test","data":{"message":"hi"}}';
const sign = (t: number, body = rawBody, key = secret) =>
  `t=${t},v1=${createHmac("sha256", key).update(`${t}.${body}`).digest("hex")}`;

describe("verifySignature", () => {
  const now = 1_800_000_000;

  it("accepts the service's signature of the raw body", async () => {
    const result = await verifySignature({
      secret,
      header: sign(now - 10),
      rawBody,
      nowSeconds: now,
    });
    expect(result).toEqual({ outcome: "valid", ageSeconds: 10, tooOld: false });
  });

  it("rejects another secret and a changed body", async () => {
    const other = await verifySignature({
      secret,
      header: sign(now, rawBody, `whsec_${"z".repeat(32)}`),
      rawBody,
      nowSeconds: now,
    });
    expect(other.outcome).toBe("invalid");
    const changed = await verifySignature({
      secret,
      header: sign(now),
      rawBody: `${rawBody} `,
      nowSeconds: now,
    });
    expect(changed.outcome).toBe("invalid");
  });

  it("matches any of several v1 values", async () => {
    const header = `t=${now},v1=${"0".repeat(64)},${sign(now).split(",")[1]}`;
    const result = await verifySignature({ secret, header, rawBody, nowSeconds: now });
    expect(result.outcome).toBe("valid");
  });

  it("flags a signature older than five minutes while still checking the match", async () => {
    const result = await verifySignature({
      secret,
      header: sign(now - 301),
      rawBody,
      nowSeconds: now,
    });
    expect(result).toEqual({ outcome: "valid", ageSeconds: 301, tooOld: true });
  });

  it("calls a header without t or v1 malformed", async () => {
    for (const header of ["", "t=1", `v1=${"a".repeat(64)}`, "t=x,v1=zz"]) {
      expect(await verifySignature({ secret, header, rawBody })).toEqual({ outcome: "malformed" });
    }
  });
});
