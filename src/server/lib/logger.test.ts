import { createHash } from "node:crypto";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "@/server/lib/logger";
import { startTempService } from "@/server/testing/temp-service";

let service: Awaited<ReturnType<typeof startTempService>>["service"];
let dir: string;
let key: string;
let w: string;
const lines: string[] = [];
beforeAll(async () => {
  const started = await startTempService("consign-logger-", {
    log: createLogger("debug", {}, (line) => lines.push(line)),
  });
  ({ service, dir } = started);
  key = started.boot.adminKey;
  w = `${service.url}/v1/workspaces/${started.boot.workspace.id}`;
  await service.deps.files.writeFile(started.boot.workspace.id, "Deliveries/a.txt", "delivered");
});
afterAll(async () => {
  await service.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${w}${path}`, {
    method,
    headers: { ...bearer(key), "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.ok, `${method} ${path}: ${res.status}`).toBe(true);
  return (await res.json()) as T;
}
const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);
const tus = (token: string, extra: Record<string, string> = {}) => ({
  ...bearer(token),
  "Tus-Resumable": "1.0.0",
  ...extra,
});

describe("the log", () => {
  it("holds no share token, transfer token, upload id or key, whatever the requests carried", async () => {
    const secrets: string[] = [];

    // A share's plain and personal links, opened as a recipient would, with a download.
    const share = await api<{ url: string; recipientLinks: { url: string }[] }>("POST", "/shares", {
      paths: ["Deliveries"],
      recipients: ["ana@example.com"],
      openLink: true,
    });
    const plain = tokenOf(share.url);
    const personal = tokenOf(share.recipientLinks[0]!.url);
    secrets.push(plain, personal);
    for (const token of [plain, personal]) {
      await fetch(`${service.url}/s/${token}`);
      expect((await fetch(`${service.url}/v1/public/shares/${token}`)).status).toBe(200);
    }
    const started = await fetch(`${service.url}/v1/public/shares/${personal}/downloads`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ paths: ["Deliveries/a.txt"] }),
    });
    const { transferSpec: receive } = (await started.json()) as { transferSpec: { token: string } };
    secrets.push(receive.token);
    const link = `${service.url}/node/v1/files?path=Deliveries%2Fa.txt&token=${receive.token}`;
    expect((await fetch(link)).status).toBe(200);

    // An upload through the node: created, sent, asked about, and refused for a bad offset.
    const send = await api<{ transferSpec: { token: string } }>("POST", "/transfers", {
      direction: "send",
      paths: [{ source: "/home/ana/a.txt", destination: "a.txt" }],
      destinationRoot: "In",
    });
    const token = send.transferSpec.token;
    secrets.push(token);
    const bytes = Buffer.from("uploaded bytes");
    const sha = createHash("sha256").update(bytes).digest("hex");
    const created = await fetch(`${service.url}/node/v1/uploads`, {
      method: "POST",
      headers: tus(token, {
        "Upload-Length": String(bytes.length),
        "Upload-Metadata": `path ${btoa("In/a.txt")},sha256 ${btoa(sha)}`,
      }),
    });
    expect(created.status).toBe(201);
    const location = created.headers.get("location")!;
    secrets.push(tokenOf(location));
    const patch = (offset: number) =>
      fetch(location, {
        method: "PATCH",
        headers: tus(token, {
          "Upload-Offset": String(offset),
          "Content-Type": "application/offset+octet-stream",
        }),
        body: bytes,
      });
    expect((await patch(5)).status).toBe(409);
    expect((await fetch(location, { method: "HEAD", headers: tus(token) })).status).toBe(200);
    expect((await patch(0)).status).toBe(204);

    // Keys that fail: unknown, malformed, and one sent where no key is expected.
    const unknown = `svc_sk_${"Z".repeat(40)}`;
    secrets.push(unknown);
    expect((await fetch(`${w}/files`, { headers: bearer(unknown) })).status).toBe(401);
    expect((await fetch(`${w}/files`, { headers: bearer("svc_sk_short") })).status).toBe(401);
    expect((await fetch(`${w}/files?key=${unknown}`)).status).toBe(401);
    secrets.push(key);

    // Every request above has been logged (the node logs once its answer is sent).
    await expect.poll(() => lines.filter((l) => l.includes('"status":401')).length).toBe(3);
    const log = lines.join("\n");
    expect(log).toContain("/v1/public/shares/");
    expect(log).toContain("/node/v1/uploads/");
    for (const secret of secrets) expect(log).not.toContain(secret);
  });

  it("masks a signed media address's token and a portal upload's id in a path", () => {
    const out: string[] = [];
    const log = createLogger("debug", {}, (line) => out.push(line));
    const media = "r1b2c3d4e5f6g7h8.1780000000000.sigsig";
    const upload = "u9x8w7v6t5s4r3q2p1";
    log.info("request", {
      path: `/v1/public/media/${media}`,
      status: `/v1/public/portals/some-slug/uploads/${upload}/status`,
    });
    const line = out.join("");
    for (const secret of [media, "r1b2c3d4e5f6g7h8", upload, "some-slug"])
      expect(line).not.toContain(secret);
    expect(JSON.parse(line).status).toBe("/v1/public/portals/[redacted]/uploads/[redacted]/status");
  });

  it("masks credentials a caller hands it, in messages, fields and error stacks", () => {
    const out: string[] = [];
    const log = createLogger("debug", {}, (line) => out.push(line));
    const upload = "0123456789abcdef0123456789abcdef";
    const transfer = `ctt_eyJ2IjoxLCJr-_${"a".repeat(40)}.${"Zz-_".repeat(21)}ab`;
    const access = `1780000000000.${"Ab-_".repeat(10)}xyz`;
    log.warn(`failed for /node/v1/uploads/${upload}`, {
      url: `http://x/s/${"P".repeat(32)}?token=${transfer}`,
      authorization: "Basic dXNlcjpwYXNz",
      headers: { "consign-share-access": access },
      err: new Error(`ENOENT: open '/data/blobs/staging/${upload}' for ${transfer}`),
    });
    const line = out.join("");
    // Every part of a signed token: its claims and its signature.
    for (const secret of [upload, transfer, access, "P".repeat(32), "dXNlcjpwYXNz", "Zz-_Zz"])
      expect(line).not.toContain(secret);
    expect(JSON.parse(line)).toMatchObject({
      level: "warn",
      msg: expect.stringContaining("/node"),
    });
  });
});
