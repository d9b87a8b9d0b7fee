import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SHARE_PASSWORD_FREE_TRIES, SHARE_PASSWORD_TARGET_CEILING } from "@/contract/rules";
import { CONTENT_PASSWORD_HEADER } from "@/contract/transfers";
import { ManualClock } from "@/server/lib/clock";
import { operationsRouter } from "@/server/modules/operations/operations.index";
import { diskBlobs } from "@/server/testing/disk-blobs";
import { errorOf, okBody } from "@/server/testing/expect-body";
import { filesClient, listFolder } from "@/server/testing/files-client";
import { type NodeTest, sha256Hex, startNodeTest } from "./node-testing";
import { ctrAt } from "./protection";

let n: NodeTest;

beforeEach(async () => {
  // Trusting X-Forwarded-For lets a test speak from many addresses.
  n = await startNodeTest({ clock: new ManualClock(Date.now()), config: { trustProxy: true } });
});
afterEach(() => n.close());

const PASSWORD = "correct horse battery";
const withPassword = (password = PASSWORD) => ({ [CONTENT_PASSWORD_HEADER]: password });
const protectedSend = () =>
  n.createTransfer({
    direction: "send",
    paths: [{ source: "/secret", destination: "Vault" }],
    contentProtectionPassword: PASSWORD,
  });
const receiveVault = () =>
  n.createTransfer({ direction: "receive", paths: [{ source: "Vault", destination: "/tmp/v" }] });

describe("content protection", () => {
  it("stores the bytes encrypted and gives them back, whole and by range, only with the password", async () => {
    const { transferSpec } = await protectedSend();
    const bytes = randomBytes(70_001);
    const done = await n.upload(transferSpec.token, "Vault/plan.bin", bytes, withPassword());
    expect(done.status).toBe(204);
    expect(done.headers.get("consign-file-sha256")).toBe(sha256Hex(bytes));

    // At rest: not the plaintext; the listing shows the plaintext's hash and size.
    const entry = n.t.deps.db
      .prepare("SELECT sha256, size, protection FROM entries WHERE path = 'Vault/plan.bin'")
      .get() as { sha256: string; size: number; protection: string };
    const protection = JSON.parse(entry.protection);
    expect(protection).toMatchObject({
      alg: "aes-256-ctr",
      sha256: sha256Hex(bytes),
      size: 70_001,
    });
    const stored = fs.readFileSync(
      diskBlobs(n.t.deps.files).pathOf(`${entry.sha256}.${protection.iv}`),
    );
    expect(stored.length).toBe(bytes.length);
    expect(stored.equals(bytes)).toBe(false);
    expect(fs.existsSync(diskBlobs(n.t.deps.files).pathOf(entry.sha256))).toBe(false);
    const { items } = await listFolder(n.t, "Vault");
    expect(items[0]).toMatchObject({ sha256: sha256Hex(bytes), sizeBytes: 70_001 });

    const { transferSpec: r } = await receiveVault();
    const whole = await n.download(r.token, "Vault/plan.bin", withPassword());
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    // A range that starts inside a cipher block.
    const part = await n.download(r.token, "Vault/plan.bin", {
      ...withPassword(),
      Range: "bytes=17-40016",
    });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(17, 40_017))).toBe(true);

    const none = await n.download(r.token, "Vault/plan.bin");
    expect(none.status).toBe(401);
    expect((await errorOf(none)).details).toMatchObject({ reason: "content_password_required" });
    const wrong = await n.download(r.token, "Vault/plan.bin", withPassword("not the password"));
    expect(wrong.status).toBe(403);
    expect((await errorOf(wrong)).details).toMatchObject({ reason: "wrong_content_password" });
    const zip = await fetch(`${n.base}/zip?path=Vault`, {
      headers: { Authorization: `Bearer ${r.token}` },
    });
    expect(zip.status).toBe(401);
  });

  it("a copy of a protected file reads with the same password", async () => {
    const { transferSpec } = await protectedSend();
    const bytes = randomBytes(5000);
    await n.upload(transferSpec.token, "Vault/a.bin", bytes, withPassword());
    n.t.deps.files.createFolder(n.t.workspaceId, "Vault/Copies");
    const copy = await n.t
      .client(operationsRouter)
      .workspaces[":workspaceId"].files.operations.$post({
        param: n.t.ws,
        json: { kind: "copy", paths: ["Vault/a.bin"], destination: "Vault/Copies" },
      });
    expect(copy.status).toBe(201);
    await n.t.deps.jobs.runDue();
    const { transferSpec: r } = await receiveVault();
    const res = await n.download(r.token, "Vault/Copies/a.bin", withPassword());
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("replaced content is kept as a version that still reads after a restore, both ways", async () => {
    const { transferSpec } = await protectedSend();
    await n.upload(transferSpec.token, "Vault/doc.txt", Buffer.from("first"), withPassword());
    await n.upload(transferSpec.token, "Vault/doc.txt", Buffer.from("second"), withPassword());
    const files = filesClient(n.t);
    const newestVersion = async () =>
      (
        await okBody(await files.versions.$get({ param: n.t.ws, query: { path: "Vault/doc.txt" } }))
      )[0]!;
    const first = await newestVersion();
    const restore = await files.versions[":versionId"].restore.$post({
      param: { ...n.t.ws, versionId: first.id },
    });
    expect(restore.status).toBe(200);
    const { transferSpec: r } = await receiveVault();
    const res = await n.download(r.token, "Vault/doc.txt", withPassword());
    expect(await res.text()).toBe("first");
    const second = await newestVersion();
    await files.versions[":versionId"].restore.$post({
      param: { ...n.t.ws, versionId: second.id },
    });
    expect(await (await n.download(r.token, "Vault/doc.txt", withPassword())).text()).toBe(
      "second",
    );
  });

  it("the console's image preview does not try to read protected bytes", async () => {
    const { transferSpec } = await protectedSend();
    await n.upload(transferSpec.token, "Vault/still.png", randomBytes(2000), withPassword());
    const res = await filesClient(n.t).preview.$get({
      param: n.t.ws,
      query: { path: "Vault/still.png" },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { details: { issues: [{ code: "no_preview" }] } },
    });
  });

  it("an upload without the password, or with another one than the transfer's first, is refused", async () => {
    const { transferSpec } = await protectedSend();
    const { token } = transferSpec;
    const none = await n.create(token, { path: "Vault/a", length: 1 });
    expect(none.status).toBe(401);
    expect((await n.upload(token, "Vault/a", Buffer.from("a"), withPassword())).status).toBe(204);
    const other = await n.create(token, {
      path: "Vault/b",
      length: 1,
      headers: withPassword("another password"),
    });
    expect(other.status).toBe(403);
    expect((await errorOf(other)).details).toMatchObject({ reason: "wrong_content_password" });
  });

  it("slows guessing down per address and per protected transfer, even for the right password", async () => {
    const { transferSpec: send } = await protectedSend();
    const plan = Buffer.from("the plan");
    expect((await n.upload(send.token, "Vault/plan.bin", plan, withPassword())).status).toBe(204);
    const { transferSpec: r } = await n.createTransfer({
      direction: "receive",
      paths: [{ source: "Vault", destination: "/tmp/v" }],
      streams: 12,
    });
    const get = async (password: string, from: string) => {
      const res = await n.download(r.token, "Vault/plan.bin", {
        ...withPassword(password),
        "X-Forwarded-For": from,
      });
      return { status: res.status, retry: res.headers.get("Retry-After"), body: await res.text() };
    };
    // An engine's parallel requests with the right password are served, whatever their number.
    const parallel = await Promise.all(
      Array.from({ length: 12 }, () => get(PASSWORD, "192.0.2.200")),
    );
    expect(parallel.map((a) => a.status)).toEqual(Array(12).fill(200));

    const burst = await Promise.all(
      Array.from({ length: 60 }, (_, i) => get(`wrong guess ${i}`, "198.51.100.7")),
    );
    // Each 403 is one password tried and found wrong; every other try was refused untried.
    expect(burst.filter((a) => a.status === 403)).toHaveLength(SHARE_PASSWORD_FREE_TRIES);
    const refused = burst.filter((a) => a.status === 429);
    expect(refused).toHaveLength(60 - SHARE_PASSWORD_FREE_TRIES);
    expect(Number(refused[0]!.retry)).toBeGreaterThan(0);
    expect((await get(PASSWORD, "198.51.100.7")).status).toBe(429);
    // The same bucket guards the transfer's uploads: the password is the same.
    const upload = await n.create(send.token, {
      path: "Vault/more.bin",
      length: 1,
      headers: { ...withPassword(), "X-Forwarded-For": "198.51.100.7" },
    });
    expect(upload.status).toBe(429);

    const spread = await Promise.all(
      Array.from({ length: 19 }, (_, a) =>
        Array.from({ length: 5 }, (_, i) => get(`guess ${a}-${i}`, `192.0.2.${a + 1}`)),
      ).flat(),
    );
    const wrong = spread.filter((a) => a.status === 403).length;
    expect(wrong + SHARE_PASSWORD_FREE_TRIES).toBe(SHARE_PASSWORD_TARGET_CEILING);
    const shut = await get(PASSWORD, "203.0.113.9");
    expect(shut.status).toBe(429);
    expect(JSON.parse(shut.body).error.details).toMatchObject({ per: "target" });
  });

  it("AES-CTR positioned at any offset continues the same key stream", () => {
    const key = randomBytes(32);
    const iv = "ff".repeat(16); // the counter wraps across all 16 bytes
    const plain = randomBytes(1000);
    const whole = ctrAt(key, iv, 0).update(plain);
    for (const at of [1, 15, 16, 17, 511])
      expect(ctrAt(key, iv, at).update(plain.subarray(at)).equals(whole.subarray(at))).toBe(true);
  });
});
