import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import { createSHA256, type IHasher } from "hash-wasm";
import { PRIVATE_FILE_MODE } from "@/server/lib/private-files";
import { type BucketParts, type MultipartState, partBytesFor, partsBytes } from "./multipart";
import { dropLease, recordParts, takeLease, type UploadRow, uploadById } from "./node.repository";
import type { NodeDeps } from "./node-deps";
import { checksumMismatch, NodeError } from "./node-errors";

/**
 * How long a request holds an upload's append lease without renewing it. A killed node's
 * upload waits this long before another node may take it (the client hears 423 and retries).
 */
export const LEASE_MS = 30_000;

/** What a PATCH brings: plaintext chunks, how they are stored, the chunk's tus checksum. */
export interface Incoming {
  chunks: AsyncIterable<Buffer>;
  /** The stored form of a chunk (AES-CTR for a protected transfer: same length). */
  seal: (plain: Buffer) => Buffer;
  checksum: string | null;
}

export const multipartOf = (row: Pick<UploadRow, "multipart">) =>
  row.multipart ? (JSON.parse(row.multipart) as MultipartState) : null;

const b64 = (state: Uint8Array) => Buffer.from(state).toString("base64");
const fileSize = (file: string) => fs.statSync(file, { throwIfNoEntry: false })?.size ?? -1;

const locked = (uploadId: string) =>
  new NodeError(423, "conflict", "Another request is writing this upload; retry shortly", {
    uploadId,
    reason: "upload_locked",
    retryAfterSeconds: 1,
  });

/**
 * tus on S3 multipart (docs/scale-out.md, Uploads on S3). A PATCH's bytes are hashed (hash-wasm,
 * whose state can be saved), sealed, and appended to a tail file on this node's disk; each time
 * the tail holds a part, it goes to the bucket as one (one on the wire while the next fills) and
 * the row records it. What the row says is always true of the bucket, so any node resumes from
 * the parts' end, and the node holding the tail from after it.
 */
export class MultipartWriter {
  constructor(
    private readonly deps: NodeDeps,
    private readonly bucket: BucketParts,
    /** Local files by name, in the node's staging folder. */
    private readonly local: (name: string) => string,
  ) {}

  /** Where this node can resume: the parts' end, and the tail when this node holds it. */
  offsetOf(s: MultipartState) {
    const base = partsBytes(s);
    return s.tail && fileSize(this.local(s.tail.file)) === s.tail.bytes
      ? base + s.tail.bytes
      : base;
  }

  /** Runs `fn` holding the upload's append lease; 423 when another request holds it. */
  private async leased<T>(id: string, fn: (owner: string) => Promise<T>): Promise<T> {
    const owner = randomUUID();
    const now = this.deps.clock.now();
    if (!takeLease(this.deps.db, id, owner, now, now + LEASE_MS)) throw locked(id);
    try {
      return await fn(owner);
    } finally {
      dropLease(this.deps.db, id, owner);
    }
  }

  /** Records the state (renewing the lease); its offset is what any node can resume from. */
  private record(id: string, owner: string, s: MultipartState) {
    const now = this.deps.clock.now();
    const recorded = recordParts(this.deps.db, id, owner, {
      multipart: JSON.stringify(s),
      offset: partsBytes(s) + (s.tail?.bytes ?? 0),
      now,
      expiresAt: now + this.deps.config.uploadExpiryMs,
      leaseUntil: now + LEASE_MS,
    });
    // The lease lapsed and another request took the upload: what this one did is not its own.
    if (!recorded) throw locked(id);
  }

  /** Appends a PATCH at `offset`; returns the new offset. */
  async write(id: string, offset: number, input: Incoming): Promise<number> {
    return this.leased(id, async (owner) => {
      const row = uploadById(this.deps.db, id)!;
      const s = multipartOf(row) ?? (await this.begin(id, row.size ?? 0));
      // Checked again under the lease: another node may have appended since tus read the offset.
      const at = this.offsetOf(s);
      if (at !== offset)
        throw new NodeError(409, "conflict", `Upload-Offset is ${offset}; the upload is at ${at}`, {
          uploadId: id,
          offset: at,
        });
      return this.append(id, owner, row.size ?? 0, s, input);
    });
  }

  private async begin(id: string, size: number): Promise<MultipartState> {
    const hasher = await createSHA256();
    hasher.init();
    return {
      key: `uploads/${id}`,
      s3UploadId: null,
      partBytes: partBytesFor(size),
      parts: [],
      partsHash: b64(hasher.save()),
      tail: null,
      completed: false,
    };
  }

  private async append(
    id: string,
    owner: string,
    size: number,
    s: MultipartState,
    input: Incoming,
  ): Promise<number> {
    const hasher: IHasher = await createSHA256();
    const kept = s.tail && fileSize(this.local(s.tail.file)) === s.tail.bytes ? s.tail : null;
    hasher.load(Buffer.from(kept ? kept.hash : s.partsHash, "base64"));
    const chunkHash = input.checksum ? createHash("sha256") : null;
    // With a checksum the PATCH is kept whole or not at all: parts are recorded at its end only.
    const eager = !input.checksum;
    let tailName = kept?.file ?? `${id}.${randomBytes(6).toString("hex")}`;
    let tailBytes = kept?.bytes ?? 0;
    let tail = await fs.promises.open(this.local(tailName), "a", PRIVATE_FILE_MODE);
    let written = this.offsetOf(s);
    let inflight: Promise<void> = Promise.resolve();
    // Every tail file this PATCH wrote to: what a refusal or failure must undo.
    const made = [tailName];
    let renewed = this.deps.clock.now();

    const sendPart = async (name: string, bytes: number, hashAfter: string) => {
      await inflight;
      if (!s.s3UploadId) {
        s.s3UploadId = await this.bucket.begin(s.key);
        // Recorded at once, so an upload id is never lost (its parts could not be aborted).
        this.record(id, owner, s);
      }
      const n = s.parts.length + 1;
      const p = (async () => {
        const part = await this.bucket.send(s, n, this.local(name), bytes);
        s.parts.push(part);
        s.partsHash = hashAfter;
        s.tail = null;
        if (eager) {
          this.record(id, owner, s);
          await fs.promises.rm(this.local(name), { force: true });
        }
      })();
      // Awaited before the next part or at the end; a failure is seen there.
      p.catch(() => {});
      inflight = p;
    };

    try {
      for await (const plain of input.chunks) {
        chunkHash?.update(plain);
        const sealed = input.seal(plain);
        for (let at = 0; at < plain.length; ) {
          const take = Math.min(plain.length - at, s.partBytes - tailBytes);
          hasher.update(plain.subarray(at, at + take));
          await tail.write(sealed.subarray(at, at + take));
          at += take;
          tailBytes += take;
          written += take;
          if (tailBytes === s.partBytes) {
            await tail.close();
            await sendPart(tailName, tailBytes, b64(hasher.save()));
            tailName = `${id}.${randomBytes(6).toString("hex")}`;
            made.push(tailName);
            tailBytes = 0;
            tail = await fs.promises.open(this.local(tailName), "a", PRIVATE_FILE_MODE);
          }
        }
        const now = this.deps.clock.now();
        if (now - renewed > LEASE_MS / 3) {
          this.record(id, owner, s);
          renewed = now;
        }
      }
      await tail.close();
      // The last byte: the tail is the last part (S3 lets the last one be small).
      if (written === size && tailBytes > 0) {
        await sendPart(tailName, tailBytes, b64(hasher.save()));
        tailBytes = 0;
      }
      await inflight;
    } catch (err) {
      await tail.close().catch(() => {});
      await inflight.catch(() => {});
      this.undo(kept, made);
      throw err;
    }
    if (chunkHash) {
      const actual = chunkHash.digest("base64");
      const expected = input.checksum!.slice("sha256 ".length);
      if (actual !== expected) {
        this.undo(kept, made);
        throw checksumMismatch("chunk", expected, actual);
      }
    }
    s.tail = tailBytes > 0 ? { file: tailName, bytes: tailBytes, hash: b64(hasher.save()) } : null;
    this.record(id, owner, s);
    // The part files were sent (recorded now, when a checksum held them back) and an empty tail
    // holds nothing.
    for (const name of made)
      if (name !== s.tail?.file) fs.rmSync(this.local(name), { force: true });
    return written;
  }

  /**
   * A PATCH that failed or was refused leaves the recorded state as it was: the tail it
   * continued is cut back to its recorded length, and the files it made go.
   */
  private undo(kept: MultipartState["tail"], names: string[]) {
    for (const name of names) {
      const file = this.local(name);
      if (kept && name === kept.file) {
        if (fs.existsSync(file)) fs.truncateSync(file, kept.bytes);
      } else fs.rmSync(file, { force: true });
    }
  }

  /**
   * The last byte arrived: the parts are assembled into the upload's object (once; a replay
   * finds it done) and the SHA-256 is read from the saved state. Returns the hex digest.
   */
  async finish(id: string, size: number): Promise<string> {
    return this.leased(id, async (owner) => {
      const s = multipartOf(uploadById(this.deps.db, id)!)!;
      const received = this.offsetOf(s);
      if (received !== size || s.tail)
        throw new NodeError(409, "validation_failed", `Received ${received} of ${size} bytes`);
      if (s.s3UploadId && !s.completed) {
        await this.bucket.complete(s);
        s.completed = true;
        this.record(id, owner, s);
      }
      const hasher = await createSHA256();
      hasher.load(Buffer.from(s.partsHash, "base64"));
      return hasher.digest("hex");
    });
  }

  /** The local tail files of an upload that ended (this node's only). */
  discardLocal(s: MultipartState | null) {
    if (s?.tail) fs.rmSync(this.local(s.tail.file), { force: true });
  }
}
