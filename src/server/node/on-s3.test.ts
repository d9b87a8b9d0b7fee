import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { HOLD_MS } from "@/server/modules/files/s3-blob-store";
import { flatImage } from "@/server/testing/media";
import { objectSize } from "@/server/testing/s3";
import { unzip } from "@/server/testing/unzip";
import { nodeOnS3EachTest, sha256Hex } from "./node-testing";

// The service on the S3 profile's bytes (s3rver), its metadata in SQLite: what the node and the
// API do with files must not tell the stores apart.
const s3n = nodeOnS3EachTest();

/** The content's object's size in the bucket, or null when it has none. */
const inBucket = (sha256: string) =>
  objectSize(s3n.bucket, `blobs/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`);

describe("the service with its bytes in a bucket", () => {
  it("commits a node upload to the bucket, serves it whole, by range and zipped, restores a version from it, and a purge deletes it", async () => {
    const bytes = randomBytes(300_000);
    const send = await s3n.n.createTransfer({
      direction: "send",
      paths: [{ source: "/home/ana/shoot", destination: "Shoot" }],
      destinationRoot: "Projects",
    });
    const uploaded = await s3n.n.upload(send.transferSpec.token, "Projects/Shoot/a.bin", bytes);
    expect(uploaded.status).toBe(204);
    const sha = sha256Hex(bytes);
    expect(await inBucket(sha)).toBe(bytes.length);
    // Nothing of the upload stays on the local disk.
    expect(s3n.n.t.deps.files.blobs.stagingIds()).toEqual([]);

    const { transferSpec } = await s3n.n.createTransfer({
      direction: "receive",
      paths: [{ source: "Projects/Shoot", destination: "/tmp/shoot" }],
    });
    const whole = await s3n.n.download(transferSpec.token, "Projects/Shoot/a.bin");
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await s3n.n.download(transferSpec.token, "Projects/Shoot/a.bin", {
      Range: "bytes=1000-1999",
    });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true);
    const zipped = await fetch(`${s3n.n.base}/zip?path=Projects/Shoot`, {
      headers: { Authorization: `Bearer ${transferSpec.token}` },
    });
    const files = await unzip(Buffer.from(await zipped.arrayBuffer()));
    expect(files.get("Shoot/a.bin")!.equals(bytes)).toBe(true);

    // A new content keeps the first as a version; restoring it reads it back from the s3n.bucket.
    await s3n.n.t.deps.files.writeFile(s3n.n.t.workspaceId, "Projects/Shoot/a.bin", "second take");
    const versions = await s3n.n.t.call(
      "GET",
      s3n.n.t.w("/files/versions?path=Projects/Shoot/a.bin"),
    );
    const first = (versions.json as { id: string; sha256: string }[])[0]!;
    expect(first.sha256).toBe(sha);
    const restored = await s3n.n.t.call("POST", s3n.n.t.w(`/files/versions/${first.id}/restore`));
    expect(restored.status).toBe(200);
    const again = await s3n.n.download(transferSpec.token, "Projects/Shoot/a.bin");
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);

    // Trashed and purged: the hourly purge deletes the object once its deferral is over.
    const trashed = await s3n.n.t.call("DELETE", s3n.n.t.w("/files"), {
      body: { paths: ["Projects/Shoot"] },
    });
    expect(trashed.status).toBe(200);
    const item = (await s3n.n.t.call("GET", s3n.n.t.w("/files/trash"))).json[0] as { id: string };
    expect((await s3n.n.t.call("DELETE", s3n.n.t.w(`/files/trash/${item.id}`))).status).toBe(200);
    expect(await inBucket(sha)).toBe(bytes.length);
    s3n.clock.advance(HOLD_MS + 3_600_000);
    await s3n.n.t.deps.jobs.runDue();
    expect(await inBucket(sha)).toBeNull();
    expect(await inBucket(sha256Hex("second take"))).toBeNull();
    expect(fs.readdirSync(`${s3n.n.t.dir}/blobs/tmp`)).toEqual([]);
  });

  it("draws a thumbnail from a local copy of the bucket's content, checked against its hash", async () => {
    const image = await flatImage(64, 48);
    const entry = await s3n.n.t.deps.files.writeFile(s3n.n.t.workspaceId, "Stills/a.png", image);
    const local = `${s3n.n.t.dir}/blobs/${entry.sha256!.slice(0, 2)}/${entry.sha256!.slice(2, 4)}/${entry.sha256}`;
    expect(fs.existsSync(local)).toBe(false);
    const preview = await s3n.n.t.call("GET", s3n.n.t.w("/files/preview?path=Stills%2Fa.png"));
    expect(preview.status).toBe(200);
    expect(preview.headers.get("content-type")).toBe("image/jpeg");
    expect(fs.readFileSync(local).equals(image)).toBe(true);
  });
});
