import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ZipFile } from "yazl";
import { StoredZipReader } from "./zip-reader";

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

/** A ZIP as the data node writes one: stored entries, sizes after the bytes, zip64 or not. */
async function zipOf(files: Record<string, Buffer>, zip64: boolean) {
  const zip = new ZipFile();
  for (const [name, bytes] of Object.entries(files))
    zip.addReadStreamLazy(
      name,
      { compress: false, forceZip64Format: zip64, size: bytes.length },
      (cb) => cb(null, Readable.from([bytes])),
    );
  zip.end({ forceZip64Format: zip64, comment: "" });
  const parts: Buffer[] = [];
  for await (const c of zip.outputStream as AsyncIterable<Buffer>) parts.push(c);
  return new Uint8Array(Buffer.concat(parts));
}

/** Reads `zip` in chunks of `step` bytes: each entry's name and SHA-256. */
function read(zip: Uint8Array, sizes: Record<string, number>, step: number) {
  const out: [string, string][] = [];
  let parts: Uint8Array[] = [];
  const reader = new StoredZipReader(
    {
      start: () => {
        parts = [];
      },
      data: (b) => parts.push(b.slice()),
      end: (name) => out.push([name, sha(Buffer.concat(parts))]),
    },
    (name) => sizes[name],
  );
  for (let i = 0; i < zip.length; i += step) reader.push(zip.subarray(i, i + step));
  reader.finish();
  return out;
}

const files = {
  "cut/reel1.mov": Buffer.from("reel one".repeat(1000)),
  "empty.txt": Buffer.alloc(0),
  "notes é.txt": Buffer.from("notes"),
};
const sizes = Object.fromEntries(Object.entries(files).map(([n, b]) => [n, b.length]));
const expected = Object.entries(files).map(([n, b]) => [n, sha(b)]);

describe("StoredZipReader", () => {
  it("hands over every entry's exact bytes, whatever the chunking, zip64 or not", async () => {
    for (const zip64 of [true, false]) {
      const zip = await zipOf(files, zip64);
      for (const step of [1, 7, 4096, zip.length]) expect(read(zip, sizes, step)).toEqual(expected);
    }
  });

  it("refuses a ZIP cut short, an entry of another size and one it was not told of", async () => {
    const zip = await zipOf(files, true);
    expect(() => read(zip.subarray(0, zip.length - 200), sizes, 512)).toThrow(/incomplete/);
    expect(() => read(zip, { ...sizes, "notes é.txt": 4 }, 512)).toThrow();
    expect(() => read(zip, { "cut/reel1.mov": 8000 }, 512)).toThrow(/unexpected entry/);
  });
});
