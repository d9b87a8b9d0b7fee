import { generateKeyPairSync, sign } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CreateTransferBody } from "@/contract/transfers";
import { ManualClock } from "@/server/lib/clock";
import {
  publicKeyText,
  readTransferToken,
  signingKey,
  signTransferToken,
  TRANSFER_TOKEN_MAX_SECONDS,
  type TransferClaims,
  tokenVerifier,
} from "@/server/modules/transfers/transfer-token";
import { errorOf } from "@/server/testing/expect-body";
import { type NodeTest, sha256Hex, startNodeTest } from "./node-testing";

let n: NodeTest;
let clock: ManualClock;
beforeEach(async () => {
  // tus checks an upload's expiry against the wall clock.
  clock = new ManualClock(Date.now());
  n = await startNodeTest({ clock });
});
afterEach(() => n.close());

const sendBody: CreateTransferBody = {
  direction: "send",
  paths: [{ source: "/local/a.mov", destination: "a.mov" }],
  destinationRoot: "Projects/Shoot",
};
const receiveBody: CreateTransferBody = {
  direction: "receive",
  paths: [{ source: "Projects/Shoot/a.mov", destination: "a.mov" }],
  destinationRoot: "/local",
};

/** The claims a token carries, read without checking its signature (the test is the forger). */
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.slice(4).split(".")[0]!, "base64url").toString()) as TransferClaims;

/** A token over `claims` with its signature made by `key` (another key than the service's). */
function signedBy(key: ReturnType<typeof generateKeyPairSync>["privateKey"], claims: object) {
  const body = `ctt_${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  return `${body}.${sign(null, Buffer.from(body), key).toString("base64url")}`;
}

async function refusal(res: Response) {
  const err = await errorOf(res);
  return {
    status: res.status,
    code: err.code,
    reason: (err.details as { reason?: string })?.reason,
  };
}

describe("signed transfer tokens", () => {
  it("a token the service signed uploads and commits", async () => {
    const { transferSpec } = await n.createTransfer(sendBody);
    expect(transferSpec.token).toMatch(/^ctt_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
    const claims = claimsOf(transferSpec.token);
    expect(claims).toMatchObject({
      transferId: transferSpec.transferId,
      workspaceId: n.t.workspaceId,
      direction: "send",
      roots: ["Projects/Shoot/a.mov"],
      exact: false,
    });
    const bytes = Buffer.from("the clip");
    const res = await n.upload(transferSpec.token, "Projects/Shoot/a.mov", bytes);
    expect(res.status).toBe(204);
    expect(res.headers.get("consign-file-sha256")).toBe(sha256Hex(bytes));
  });

  it("carries a long list of roots as their digest, checked against the stored paths", async () => {
    const paths = Array.from({ length: 200 }, (_, i) => ({
      source: `/local/${i}.mov`,
      destination: `clip ${String(i).padStart(3, "0")}.mov`,
    }));
    const { transferSpec } = await n.createTransfer({ ...sendBody, paths });
    const claims = claimsOf(transferSpec.token);
    expect(claims.roots).toBeUndefined();
    expect(claims.rootsSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(transferSpec.token.length).toBeLessThan(1024);
    const ok = await n.upload(transferSpec.token, "Projects/Shoot/clip 199.mov", Buffer.from("x"));
    expect(ok.status).toBe(204);
    const res = await n.create(transferSpec.token, {
      path: "Projects/Shoot/clip 200.mov",
      length: 1,
    });
    expect(await refusal(res)).toMatchObject({ status: 403, reason: "outside_transfer" });
  });

  it("refuses a payload changed under its signature", async () => {
    const { transferSpec } = await n.createTransfer(sendBody);
    const [, sig] = transferSpec.token.split(".");
    const widened = { ...claimsOf(transferSpec.token), roots: [""] };
    const forged = `ctt_${Buffer.from(JSON.stringify(widened)).toString("base64url")}.${sig}`;
    const res = await n.create(forged, { path: "Elsewhere/x", length: 1 });
    expect(await refusal(res)).toEqual({ status: 401, code: "unauthenticated", reason: "unknown" });
  });

  it("refuses a token signed by another key, under the service's key id or its own", async () => {
    const { transferSpec } = await n.createTransfer(sendBody);
    const claims = claimsOf(transferSpec.token);
    const { privateKey } = generateKeyPairSync("ed25519");
    for (const kid of [claims.kid, "someone-else"]) {
      const res = await n.create(signedBy(privateKey, { ...claims, kid }), {
        path: "Projects/Shoot/a.mov",
        length: 1,
      });
      expect(await refusal(res)).toEqual({
        status: 401,
        code: "unauthenticated",
        reason: "unknown",
      });
    }
  });

  it("refuses a token for another node", async () => {
    const { transferSpec } = await n.createTransfer(sendBody);
    const claims = claimsOf(transferSpec.token);
    const { kid: _kid, ...rest } = claims;
    const other = signTransferToken(n.t.deps.config.dataDir, {
      ...rest,
      node: "https://node9.example.com/node/v1",
    });
    const res = await n.create(other, { path: "Projects/Shoot/a.mov", length: 1 });
    expect(await refusal(res)).toEqual({ status: 403, code: "forbidden", reason: "wrong_node" });
  });

  it("refuses a token past its end even while its transfer stays active", async () => {
    const { transferSpec } = await n.createTransfer(sendBody);
    const claims = claimsOf(transferSpec.token);
    expect(claims.expiresAt - claims.issuedAt).toBe(TRANSFER_TOKEN_MAX_SECONDS * 1000);
    const verifier = tokenVerifier(n.t.deps.config);
    expect(readTransferToken(verifier, transferSpec.token, claims.expiresAt).transferId).toBe(
      transferSpec.transferId,
    );
    expect(() =>
      readTransferToken(verifier, transferSpec.token, claims.expiresAt + 1),
    ).toThrowError(expect.objectContaining({ status: 401, code: "expired_token" }));
  });

  it("a node given only the service's public key checks its tokens, and makes no key of its own", async () => {
    const { transferSpec } = await n.createTransfer(sendBody);
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "consign-node-"));
    const own = publicKeyText(signingKey(n.t.deps.config.dataDir).publicKey);
    const verifier = tokenVerifier({
      ...n.t.deps.config,
      dataDir: elsewhere,
      nodeTokenPublicKeys: [own],
    });
    expect(readTransferToken(verifier, transferSpec.token, clock.now()).transferId).toBe(
      transferSpec.transferId,
    );
    expect(fs.readdirSync(elsewhere)).toEqual([]);
    fs.rmSync(elsewhere, { recursive: true });
  });

  it("refuses bad tokens and a wrong direction before any database read", async () => {
    const send = await n.createTransfer(sendBody);
    await n.t.deps.files.writeFile(n.t.workspaceId, "Projects/Shoot/a.mov", "x");
    const receive = await n.createTransfer(receiveBody);
    const claims = claimsOf(send.transferSpec.token);
    const { kid: _kid, ...rest } = claims;
    const { privateKey } = generateKeyPairSync("ed25519");
    const [, sig] = send.transferSpec.token.split(".");
    const late = signTransferToken(n.t.deps.config.dataDir, {
      ...rest,
      expiresAt: clock.now() - 1,
    });
    // The node's database is gone: whatever it refuses now, it refused without one.
    n.t.deps.db.close();
    const cases: [string, Awaited<ReturnType<typeof refusal>>][] = [
      ["ctt_not-a-token", { status: 401, code: "unauthenticated", reason: "malformed" }],
      [`ctt_${"a".repeat(43)}`, { status: 401, code: "unauthenticated", reason: "malformed" }],
      [
        `ctt_${Buffer.from(JSON.stringify({ ...claims, roots: [""] })).toString("base64url")}.${sig}`,
        { status: 401, code: "unauthenticated", reason: "unknown" },
      ],
      [signedBy(privateKey, claims), { status: 401, code: "unauthenticated", reason: "unknown" }],
      [late, { status: 401, code: "expired_token", reason: "expired" }],
      [
        signTransferToken(n.t.deps.config.dataDir, { ...rest, node: "https://elsewhere/node/v1" }),
        { status: 403, code: "forbidden", reason: "wrong_node" },
      ],
      [receive.transferSpec.token, { status: 403, code: "forbidden", reason: "wrong_direction" }],
    ];
    for (const [token, expected] of cases)
      expect(
        await refusal(await n.create(token, { path: "Projects/Shoot/a.mov", length: 1 })),
      ).toEqual(expected);
    const outside = await n.download(receive.transferSpec.token, "Projects/Other/b.mov");
    expect(await refusal(outside)).toEqual({
      status: 403,
      code: "forbidden",
      reason: "outside_transfer",
    });
  });
});
