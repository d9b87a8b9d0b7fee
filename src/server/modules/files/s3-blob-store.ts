import fs from "node:fs";
import { PassThrough, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setTimeout as delay } from "node:timers/promises";
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  UploadPartCopyCommand,
} from "@aws-sdk/client-s3";
import { state as sdkWarning } from "@aws-sdk/core/client";
import { Upload } from "@aws-sdk/lib-storage";
import type { Db } from "@/server/db/database";
import type { S3Settings } from "@/server/env";
import type { Clock } from "@/server/lib/clock";
import {
  claimDueDeletions,
  deferDeletion,
  holdContent,
  releaseClaim,
} from "./blob-holds.repository";
import {
  type BlobStore,
  type ByteRange,
  DiskBlobStore,
  type FileContent,
  type StagedBlob,
} from "./blob-store";
import { LocalCopyCache } from "./local-copy-cache";

/**
 * How long a stage holds its content against deletion: it must commit within it. A deletion
 * waits for the last hold on its content to end, so this also delays deletions.
 */
export const HOLD_MS = 3_600_000;
/**
 * A local copy handed out this recently is never removed by the bound: the tool it was fetched
 * for (a render, a probe) opens it within this time.
 */
const COPY_GRACE_MS = 3_600_000;
/** A commit this close to its hold's end is refused: process clocks may disagree by as much. */
const HOLD_MARGIN_MS = 60_000;
/** A deleter's claim; its requests are aborted well within it (DELETE_TIMEOUT_MS). */
const DELETE_LEASE_MS = 600_000;
const DELETE_TIMEOUT_MS = 60_000;
/** How often a stage looks again while a deletion of its content is on the wire. */
const HOLD_RETRY_MS = 200;
const DELETIONS_PER_BATCH = 100;
/** Multipart from this size on, in parts of this size, two on the wire at once. */
export const PART_BYTES = 8 * 1024 * 1024;
/** S3's largest single CopyObject; a larger object is copied in parts of a gibibyte. */
const COPY_MAX_BYTES = 5 * 1024 ** 3;
const COPY_PART_BYTES = 1024 ** 3;

const clients = new Map<string, S3Client>();

/**
 * The process's S3 client for these settings (in practice one: the settings come from the
 * environment). Checksums only where an operation requires one: the SDK's default CRC32 trailers
 * (aws-chunked bodies) are refused by most non-AWS servers.
 */
export function s3Client(s: S3Settings): S3Client {
  const id = JSON.stringify([s.endpoint, s.region, s.forcePathStyle, s.credentials?.accessKeyId]);
  let client = clients.get(id);
  if (!client) {
    // The SDK warns once per process that later releases want Node 22; the README says which
    // Node runs the service, and the warning would land in every test run and start-up log.
    sdkWarning.warningEmitted = true;
    client = new S3Client({
      region: s.region,
      ...(s.endpoint ? { endpoint: s.endpoint } : {}),
      forcePathStyle: s.forcePathStyle,
      ...(s.credentials ? { credentials: s.credentials } : {}),
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
    clients.set(id, client);
  }
  return client;
}

/** The object key of a stored blob: the disk's layout under `blobs/`. */
export const keyOf = (name: string) => `blobs/${name.slice(0, 2)}/${name.slice(2, 4)}/${name}`;

export const isNotFound = (err: unknown) =>
  (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/** A missing object reads as a missing file does on disk. */
function asReadError(err: unknown, key: string) {
  if (!isNotFound(err)) return err as Error;
  return Object.assign(new Error(`${key} is not in the bucket`), { code: "ENOENT" });
}

/**
 * File bytes in an S3-compatible bucket under the disk's keys (`blobs/ab/cd/<name>`). Content is
 * hashed into a local temp file first, then written to its content key (multipart when big)
 * before the database references it: an object nobody references is only garbage, and `commit`
 * (inside the referencing transaction, which cannot wait for the network) just drops the temp
 * file. Deletions are deferred and re-checked (`blob_holds`, docs/scale-out.md, Bytes on S3) so
 * a purge never deletes content another request has just written again. The node's resumable
 * uploads stage on the local disk, and tools that read files get a local copy (`localPath`),
 * both through a DiskBlobStore on DATA_DIR.
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  /** Temp and staging files, and the content-addressed cache of local copies. */
  readonly local: DiskBlobStore;
  /** The local copies' bound; none when not given (tests). */
  readonly copies: LocalCopyCache | null;
  private readonly holdMs: number;

  constructor(
    settings: S3Settings,
    dataDir: string,
    private readonly db: Db,
    private readonly clock: Clock,
    opts: { localCacheBytes?: number; holdMs?: number } = {},
  ) {
    this.client = s3Client(settings);
    this.bucket = settings.bucket;
    this.local = new DiskBlobStore(dataDir);
    this.holdMs = opts.holdMs ?? HOLD_MS;
    this.copies =
      opts.localCacheBytes === undefined
        ? null
        : new LocalCopyCache(this.local.root, opts.localCacheBytes, COPY_GRACE_MS, () =>
            clock.now(),
          );
  }

  async stage(content: FileContent): Promise<StagedBlob> {
    const staged = await this.local.stage(content);
    try {
      return await this.persist(staged);
    } catch (err) {
      this.local.discard(staged);
      throw err;
    }
  }

  /**
   * Holds the content against deletion, then writes its object unless the bucket has it. Once
   * the hold is taken no deletion of the content can start before `heldUntil`, so an object seen
   * or written now stays at least that long (the commit's reference then keeps it).
   */
  async persist(staged: StagedBlob): Promise<StagedBlob> {
    const name = staged.name ?? staged.sha256;
    for (;;) {
      const heldUntil = await this.hold(staged.sha256);
      const stored = await this.stat(name);
      if (stored?.size !== staged.size)
        await (staged.sourceKey
          ? this.copy(staged.sourceKey, keyOf(name), staged.size)
          : this.putFile(keyOf(name), staged.tempPath));
      if (this.clock.now() < heldUntil - HOLD_MARGIN_MS) return { ...staged, heldUntil };
      // The write outlasted its hold, so a deletion may have taken the object: again.
    }
  }

  private async hold(sha256: string) {
    for (let waited = 0; waited <= DELETE_LEASE_MS; waited += HOLD_RETRY_MS) {
      const now = this.clock.now();
      const until = now + this.holdMs;
      if (holdContent(this.db, sha256, until, now)) return until;
      // A deleter has claimed this content: its DELETE must land before our object does.
      await delay(HOLD_RETRY_MS);
    }
    throw new Error(`blob ${sha256} is still being deleted; try again`);
  }

  /** A local file to an object (one PUT, or multipart when big); derived media use it too. */
  async putFile(key: string, file: string) {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: fs.createReadStream(file) },
      partSize: PART_BYTES,
      queueSize: 2,
    });
    await upload.done();
  }

  /** A server-side copy within the bucket: the bytes do not pass through this process. */
  private async copy(from: string, to: string, size: number) {
    const source = `${this.bucket}/${from}`;
    if (size <= COPY_MAX_BYTES) {
      await this.client.send(
        new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: source }),
      );
      return;
    }
    const made = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: to }),
    );
    const parts = [];
    for (let start = 0, n = 1; start < size; start += COPY_PART_BYTES, n++) {
      const end = Math.min(size, start + COPY_PART_BYTES) - 1;
      const copied = await this.client.send(
        new UploadPartCopyCommand({
          Bucket: this.bucket,
          Key: to,
          UploadId: made.UploadId,
          PartNumber: n,
          CopySource: source,
          CopySourceRange: `bytes=${start}-${end}`,
        }),
      );
      parts.push({ PartNumber: n, ETag: copied.CopyPartResult?.ETag });
    }
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: to,
        UploadId: made.UploadId,
        MultipartUpload: { Parts: parts },
      }),
    );
  }

  stagingPath(id: string) {
    return this.local.stagingPath(id);
  }

  appendStaging(id: string) {
    return this.local.appendStaging(id);
  }

  /** The local disk's: the node's uploads still stage there (the bucket has no such bound). */
  freeBytes() {
    return this.local.freeBytes();
  }

  stagingIds() {
    return this.local.stagingIds();
  }

  /** The object is written (`persist`); only the temp file is left, if the hold still holds. */
  commit(staged: StagedBlob) {
    if (staged.heldUntil === undefined)
      throw new Error(`blob ${staged.sha256} was committed without being persisted`);
    if (this.clock.now() > staged.heldUntil - HOLD_MARGIN_MS)
      throw new Error(`blob ${staged.sha256} was held too long before its commit; stage it again`);
    this.local.discard(staged);
  }

  /** The temp file goes; an object written for it goes when its hold ends, if unreferenced. */
  discard(staged: StagedBlob) {
    this.local.discard(staged);
  }

  read(name: string, range?: ByteRange): Readable {
    return this.readObject(keyOf(name), range);
  }

  /** An object's bytes (a range of them); a missing one errors the stream with ENOENT. */
  readObject(key: string, range?: ByteRange): Readable {
    const out = new PassThrough({ highWaterMark: 1024 * 1024 });
    const request = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
    });
    this.client.send(request).then(
      // A reader that stops early (a client gone) ends the object's body too.
      (res) => pipeline(res.Body as Readable, out).catch(() => {}),
      (err) => out.destroy(asReadError(err, key)),
    );
    return out;
  }

  async deleteObject(key: string) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /**
   * The cached copy, fetched (and, for plain content, checked against its hash) on a miss. Its
   * use is recorded, so the bound removes copies used longest ago first (LocalCopyCache).
   */
  async localPath(name: string) {
    const file = this.local.pathOf(name);
    if (fs.existsSync(file)) {
      try {
        this.copies?.used(file);
        return file;
      } catch (err) {
        // Removed by a trim between the check and the mark: fetched again below.
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
    }
    const copy = await this.local.stage(this.read(name));
    // An encrypted variant (`<sha256>.<iv>`) holds ciphertext, which no stored hash describes.
    if (!name.includes(".") && copy.sha256 !== name) {
      this.local.discard(copy);
      throw new Error(`blob ${name} in the bucket does not match its hash`);
    }
    this.local.commit({ ...copy, name });
    this.copies?.added(file, copy.size);
    return file;
  }

  async stat(name: string) {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: keyOf(name) }),
      );
      return { size: head.ContentLength ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /** Inside the collecting transaction: recorded, carried out by `deleteDue`. */
  remove(sha256: string) {
    deferDeletion(this.db, sha256, this.clock.now());
  }

  /** In batches, each claimed for a lease of its own, until nothing due is left. */
  async deleteDue() {
    let deleted = 0;
    for (;;) {
      const now = this.clock.now();
      const leaseUntil = now + DELETE_LEASE_MS;
      const due = claimDueDeletions(this.db, now, leaseUntil, DELETIONS_PER_BATCH);
      for (const sha256 of due) {
        // Only a DELETE that surely ends within the lease: past it, a stage may write again.
        if (this.clock.now() + DELETE_TIMEOUT_MS >= leaseUntil) return deleted;
        await this.deleteObjects(sha256);
        this.local.remove(sha256);
        releaseClaim(this.db, sha256, leaseUntil);
        deleted++;
      }
      if (due.length < DELETIONS_PER_BATCH) return deleted;
    }
  }

  /** The content's object and its encrypted variants (`<sha256>.<iv>`), one DELETE each. */
  private async deleteObjects(sha256: string) {
    const abortSignal = AbortSignal.timeout(DELETE_TIMEOUT_MS);
    const listed = await this.client.send(
      new ListObjectsV2Command({ Bucket: this.bucket, Prefix: keyOf(sha256) }),
      { abortSignal },
    );
    for (const { Key } of listed.Contents ?? [])
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key }), {
        abortSignal,
      });
  }

  sweepTemp(olderThanMs: number, now: number) {
    this.local.sweepTemp(olderThanMs, now);
  }
}
