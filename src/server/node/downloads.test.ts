import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "@/server/lib/clock";
import { errorOf } from "@/server/testing/expect-body";
import { unzip } from "@/server/testing/unzip";
import { type NodeTest, sha256Hex, startNodeTest } from "./node-testing";

let n: NodeTest;

beforeEach(async () => {
  n = await startNodeTest({ clock: new ManualClock(Date.now()) });
});
afterEach(() => n.close());

const write = (p: string, content: Buffer | string) =>
  n.t.deps.files.writeFile(n.t.workspaceId, p, content);
const receive = (paths: { source: string; destination: string }[]) =>
  n.createTransfer({ direction: "receive", paths });
const served = (id: string) =>
  n.t.deps.db.prepare("SELECT bytes_served FROM transfers WHERE id = ?").pluck().get(id);
const usage = (id: string) =>
  n.t.deps.db
    .prepare("SELECT direction, sum(bytes) AS bytes FROM usage_records WHERE transfer_id = ?")
    .get(id);
describe("one file with Range", () => {
  it("serves the whole file, ranges (206), suffix ranges and 416, with exact bytes and counts", async () => {
    const bytes = randomBytes(100_000);
    await write("Out/cut.mov", bytes);
    const { transferId, transferSpec } = await receive([
      { source: "Out/cut.mov", destination: "/tmp/cut.mov" },
    ]);
    const { token } = transferSpec;
    const whole = await n.download(token, "Out/cut.mov");
    expect(whole.status).toBe(200);
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.headers.get("etag")).toBe(`"${sha256Hex(bytes)}"`);
    expect(whole.headers.get("consign-file-sha256")).toBe(sha256Hex(bytes));
    expect(whole.headers.get("content-disposition")).toContain('attachment; filename="cut.mov"');
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);

    const part = await n.download(token, "Out/cut.mov", { Range: "bytes=1000-1999" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 1000-1999/100000");
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true);

    const tail = await n.download(token, "Out/cut.mov", { Range: "bytes=-500" });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(99_500))).toBe(true);

    const open = await n.download(token, "Out/cut.mov", { Range: "bytes=99990-" });
    expect(Buffer.from(await open.arrayBuffer()).equals(bytes.subarray(99_990))).toBe(true);

    const beyond = await n.download(token, "Out/cut.mov", { Range: "bytes=100000-" });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe("bytes */100000");
    expect((await errorOf(beyond)).code).toBe("validation_failed");

    // If-Range with another validator: the whole file, not the range.
    const changed = await n.download(token, "Out/cut.mov", {
      Range: "bytes=0-9",
      "If-Range": '"something-else"',
    });
    expect(changed.status).toBe(200);
    await changed.arrayBuffer();

    const total = 100_000 + 1000 + 500 + 10 + 100_000;
    // Counted when each response has gone out, a moment after the client has read it.
    await expect.poll(() => served(transferId)).toBe(total);
    expect(usage(transferId)).toEqual({ direction: "receive", bytes: total });
  });

  it("HEAD answers the headers only; a link may carry the token as ?token=", async () => {
    await write("Out/a.txt", "abc");
    const { transferSpec } = await receive([{ source: "Out", destination: "/tmp/out" }]);
    const head = await fetch(`${n.base}/files?path=Out/a.txt`, {
      method: "HEAD",
      headers: { Authorization: `Bearer ${transferSpec.token}` },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("3");
    const link = await fetch(`${n.base}/files?path=Out/a.txt&token=${transferSpec.token}`);
    expect(await link.text()).toBe("abc");
  });

  it("refuses a send's token, a path outside the transfer and a missing file", async () => {
    await write("Out/a.txt", "abc");
    await write("Secret/b.txt", "b");
    const send = await n.createTransfer({
      direction: "send",
      paths: [{ source: "/x", destination: "Out" }],
    });
    const wrong = await n.download(send.transferSpec.token, "Out/a.txt");
    expect(wrong.status).toBe(403);
    expect((await errorOf(wrong)).details).toMatchObject({ reason: "wrong_direction" });
    const { transferSpec } = await receive([{ source: "Out", destination: "/tmp/out" }]);
    const outside = await n.download(transferSpec.token, "Secret/b.txt");
    expect(outside.status).toBe(403);
    expect((await errorOf(outside)).details).toMatchObject({ reason: "outside_transfer" });
    expect((await n.download(transferSpec.token, "Out/none.txt")).status).toBe(404);
  });
});

describe("a folder as a streamed ZIP", () => {
  it("unzips to the exact bytes, with the folder tree and empty folders", async () => {
    const big = randomBytes(250_000);
    await write("Out/Reel/a.bin", big);
    await write("Out/Reel/sub/b.txt", "bee");
    n.t.deps.files.createFolder(n.t.workspaceId, "Out/Reel/empty");
    await write("Out/Reelx.txt", "not in the reel");
    const { transferId, transferSpec } = await receive([
      { source: "Out/Reel", destination: "/tmp/reel" },
    ]);
    const res = await fetch(`${n.base}/zip?path=Out/Reel`, {
      headers: { Authorization: `Bearer ${transferSpec.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    const zip = Buffer.from(await res.arrayBuffer());
    const files = await unzip(zip);
    expect([...files.keys()].sort()).toEqual([
      "Reel/",
      "Reel/a.bin",
      "Reel/empty/",
      "Reel/sub/",
      "Reel/sub/b.txt",
    ]);
    expect(files.get("Reel/a.bin")!.equals(big)).toBe(true);
    expect(files.get("Reel/sub/b.txt")!.toString()).toBe("bee");
    await expect.poll(() => served(transferId)).toBe(zip.length);

    // Without a path: everything the transfer reaches.
    const all = await fetch(`${n.base}/zip?token=${transferSpec.token}`);
    expect([...(await unzip(Buffer.from(await all.arrayBuffer()))).keys()]).toContain(
      "Reel/sub/b.txt",
    );
  });
});
