import { AsyncLocalStorage } from "node:async_hooks";
import { type Cipher, createHash, type Hash } from "node:crypto";
import fs from "node:fs";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { DataStore, ERRORS, Upload } from "@tus/utils";
import { normalizeName, pathProblem } from "@/contract/rules";
import { isDiskFull, pathRejected, validationFailed } from "@/server/lib/api-error";
import { PRIVATE_FILE_MODE } from "@/server/lib/private-files";
import type { BlobStore } from "@/server/modules/files/blob-store";
import { checkPortalFile, checkPortalTransfer } from "@/server/modules/portals/portal-gate";
import type { TransferGrant } from "@/server/modules/transfers/transfer-access";
import { withinGrant } from "@/server/modules/transfers/transfer-access";
import { commitUpload } from "./commit.service";
import { type BucketParts, bucketPartsFor, partBytesFor } from "./multipart";
import { MultipartWriter, multipartOf } from "./multipart-writer";
import {
  anyKeyCheck,
  claimedByTransfer,
  clearMultipart,
  endUpload,
  insertUpload,
  recordOffset,
  type UploadMeta,
  type UploadRow,
  uploadById,
} from "./node.repository";
import type { NodeDeps } from "./node-deps";
import { beyondTotals, checksumMismatch, insufficientStorage, NodeError } from "./node-errors";
import { ctrAt, keyCheckOf, newIv, passwordRequired, sameKey, wrongPassword } from "./protection";
import type { Traffic } from "./traffic";

/** What the node's HTTP layer learnt about the request before handing it to @tus/server. */
export interface UploadRequest {
  grant: TransferGrant;
  /** The content protection key (from Consign-Content-Password), when the transfer has one. */
  key: Buffer | null;
  /** tus checksum extension: the chunk's `Upload-Checksum: sha256 <base64>`. */
  checksum: string | null;
}

/** The request in flight; @tus/server calls the store without it, so it travels this way. */
export const uploadRequest = new AsyncLocalStorage<UploadRequest>();

function current(): UploadRequest {
  const r = uploadRequest.getStore();
  if (!r) throw new Error("upload store called outside a node request");
  return r;
}

/** An upload's hashing and encryption state, positioned at the bytes received so far. */
interface Live {
  offset: number;
  hash: Hash;
  cipher: Cipher | null;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * @tus/server's store for the node (docs/data-node.md). Each upload appends to one staging file
 * while hashing (and, for a protected transfer, encrypting) as the bytes pass; its state is the
 * `transfer_uploads` row, and the staging file's length is the offset a client resumes from.
 * The hash state lives in memory; after a restart the staged prefix is hashed once from disk.
 * The last byte does not commit here: `finish` (called from tus's onUploadFinish) verifies size
 * and SHA-256 and commits the file with the upload's row, the transfer's counters and the usage
 * record in one transaction. With the blob store on S3, the bytes go to the bucket as multipart
 * parts instead, resumable on any node (MultipartWriter); uploads begun before stay on disk.
 */
export class UploadStore extends DataStore {
  private readonly live = new Map<string, Live>();
  private readonly parts: BucketParts | null;
  private readonly writer: MultipartWriter | null;

  constructor(
    private readonly deps: NodeDeps,
    private readonly blobs: BlobStore,
    private readonly traffic: Traffic,
  ) {
    super();
    this.parts = bucketPartsFor(deps.config);
    this.writer = this.parts && new MultipartWriter(deps, this.parts, (n) => blobs.stagingPath(n));
    this.extensions = ["creation", "creation-with-upload", "termination", "expiration", "checksum"];
  }

  getExpiration() {
    return this.deps.config.uploadExpiryMs;
  }

  async create(upload: Upload): Promise<Upload> {
    const { grant, key } = current();
    const { transfer } = grant;
    const { db, clock } = this.deps;
    const raw = upload.metadata?.path;
    if (!raw) throw validationFailed("Upload-Metadata.path", "path is required", "required");
    const p = normalizeName(raw);
    const problem = pathProblem(p);
    if (problem) throw pathRejected("Upload-Metadata.path", `Path ${problem}`);
    if (!withinGrant(grant, p))
      throw new NodeError(403, "forbidden", `"${p}" is outside this transfer's destinations`, {
        reason: "outside_transfer",
        path: p,
      });
    const size = upload.size;
    if (size === undefined)
      throw validationFailed("Upload-Length", "Upload-Length is required", "required");
    checkPortalFile(db, transfer, { path: p, size }, clock.now());
    // On S3 the node's disk holds at most a part being filled and one being sent.
    await this.requireRoom(this.writer ? Math.min(size, 2 * partBytesFor(size)) : size);
    const meta: UploadMeta = {};
    const sha = upload.metadata?.sha256?.toLowerCase();
    if (sha !== undefined) {
      if (!SHA256_HEX.test(sha))
        throw validationFailed("Upload-Metadata.sha256", "sha256 must be 64 hex digits", "invalid");
      meta.expectedSha256 = sha;
    }
    const mtime = upload.metadata?.mtime;
    if (mtime !== undefined && mtime !== null) {
      const ms = Number(mtime);
      if (!Number.isSafeInteger(ms) || ms < 0)
        throw validationFailed("Upload-Metadata.mtime", "mtime must be epoch milliseconds");
      meta.mtime = ms;
    }
    if (transfer.protection_salt) {
      if (!key) throw passwordRequired();
      meta.iv = newIv();
      meta.keyCheck = keyCheckOf(key);
    }
    const now = clock.now();
    db.transaction(() => {
      // Under the write lock, so two uploads created at once cannot both fit the last slot.
      const claimed = claimedByTransfer(db, transfer.id);
      if (transfer.file_count !== null && claimed.files + 1 > transfer.file_count)
        throw beyondTotals("fileCount", transfer.file_count, claimed.files + 1);
      if (transfer.total_bytes !== null && claimed.bytes + size > transfer.total_bytes)
        throw beyondTotals("totalBytes", transfer.total_bytes, claimed.bytes + size);
      if (meta.keyCheck) {
        const other = anyKeyCheck(db, transfer.id);
        if (other && !sameKey(key!, other)) throw wrongPassword();
      }
      insertUpload(db, {
        id: upload.id,
        transfer_id: transfer.id,
        workspace_id: transfer.workspace_id,
        path: p,
        size,
        metadata: JSON.stringify({ ...meta, tus: upload.metadata ?? {} }),
        created_at: now,
        expires_at: now + this.getExpiration(),
      });
    }).immediate();
    upload.creation_date = new Date(now).toISOString();
    return upload;
  }

  async getUpload(id: string): Promise<Upload> {
    const row = uploadById(this.deps.db, id);
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    if (row.status === "failed" || row.status === "cancelled") throw ERRORS.FILE_NO_LONGER_EXISTS;
    const { tus } = JSON.parse(row.metadata) as { tus: Record<string, string | null> };
    const parts = multipartOf(row);
    return new Upload({
      id,
      size: row.size ?? undefined,
      offset:
        row.status === "committed"
          ? (row.size ?? 0)
          : parts && this.writer
            ? this.writer.offsetOf(parts)
            : this.stagedLength(id),
      metadata: tus,
      // tus measures expiry from here: the last byte received, so an active upload never expires.
      creation_date: new Date(row.expires_at - this.getExpiration()).toISOString(),
    });
  }

  /**
   * MIN_FREE_DISK_MB: an upload whose remaining bytes would take the disk below the floor is
   * refused before any of them is written, so uploads cannot fill the disk the database and the
   * cleanup need.
   */
  private async requireRoom(remaining: number) {
    const floor = this.deps.config.minFreeDiskBytes;
    if (floor === 0) return;
    const free = await this.blobs.freeBytes();
    if (free !== null && free - remaining < floor) throw insufficientStorage("free_space_floor");
  }

  /** The bytes the staging file holds: what survived, whatever the process knew before it died. */
  private stagedLength(id: string) {
    return fs.statSync(this.blobs.stagingPath(id), { throwIfNoEntry: false })?.size ?? 0;
  }

  async write(stream: Readable, id: string, offset: number): Promise<number> {
    const { grant, key, checksum } = current();
    // A portal revoked, expired or paused since the upload began takes no more bytes.
    checkPortalTransfer(this.deps.db, grant.transfer, this.deps.clock.now());
    const row = uploadById(this.deps.db, id)!;
    // Committed already: a client resending its last request after a crash hears the same answer.
    if (row.status === "committed") {
      for await (const _ of stream);
      return row.size ?? 0;
    }
    const meta = JSON.parse(row.metadata) as UploadMeta;
    if (meta.keyCheck && (!key || !sameKey(key, meta.keyCheck)))
      throw key ? wrongPassword() : passwordRequired();
    if (this.writer && (row.multipart || (offset === 0 && this.stagedLength(id) === 0)))
      return this.writeParts(this.writer, stream, row, meta, offset);
    await this.requireRoom((row.size ?? 0) - offset);
    const live = await this.liveAt(row, meta, key, offset);
    const chunkHash = checksum ? createHash("sha256") : null;
    const before = checksum ? live.hash.copy() : null;
    const staging = this.blobs.stagingPath(id);
    // Appending is writing at `offset`: tus has checked that it is the staged length. The file
    // appears with the first bytes; until then its length is 0.
    const { traffic } = this;
    const { priority } = grant.transfer;
    let written = offset;
    try {
      // A pipeline, so that a write that fails (a full disk) rejects here, whenever it happens,
      // rather than as an 'error' event nobody listens to, which would end the process.
      await pipeline(
        stream,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            live.hash.update(chunk);
            chunkHash?.update(chunk);
            written += chunk.length;
            yield live.cipher ? live.cipher.update(chunk) : chunk;
            if (traffic.paced(priority)) await traffic.pace(priority, chunk.length);
          }
        },
        this.blobs.appendStaging(id),
      );
    } catch (err) {
      // The hash may hold bytes the file does not: the next request hashes what is on disk,
      // whose length (what reached it before the failure) is the offset HEAD reports.
      this.live.delete(id);
      // A checksummed chunk is kept whole or not at all.
      if (checksum && fs.existsSync(staging)) fs.truncateSync(staging, offset);
      // The client hears 507; whoever runs the node must hear it too.
      if (isDiskFull(err)) this.deps.log.error("data node disk full: an upload stopped", { err });
      throw err;
    }
    if (checksum && chunkHash) {
      const actual = chunkHash.digest("base64");
      const expected = checksum.slice("sha256 ".length);
      if (actual !== expected) {
        fs.truncateSync(staging, offset);
        this.live.set(id, {
          offset,
          hash: before!,
          cipher: meta.iv && key ? ctrAt(key, meta.iv, offset) : null,
        });
        throw checksumMismatch("chunk", expected, actual);
      }
    }
    live.offset = written;
    // The last byte's request commits next, and that write says everything this one would.
    if (written === row.size) return written;
    const now = this.deps.clock.now();
    recordOffset(this.deps.db, id, written, now, now + this.getExpiration());
    return written;
  }

  /** A PATCH on S3: paced as on disk, sealed for a protected transfer, into multipart parts. */
  private async writeParts(
    writer: MultipartWriter,
    stream: Readable,
    row: UploadRow,
    meta: UploadMeta,
    offset: number,
  ) {
    const { grant, key, checksum } = current();
    const { traffic } = this;
    const { priority } = grant.transfer;
    const cipher = meta.iv && key ? ctrAt(key, meta.iv, offset) : null;
    async function* paced() {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        yield chunk;
        if (traffic.paced(priority)) await traffic.pace(priority, chunk.length);
      }
    }
    try {
      return await writer.write(row.id, offset, {
        chunks: paced(),
        seal: (plain) => (cipher ? cipher.update(plain) : plain),
        checksum,
      });
    } catch (err) {
      if (isDiskFull(err)) this.deps.log.error("data node disk full: an upload stopped", { err });
      throw err;
    }
  }

  /** The upload's state at `offset`: kept from the last request, or rebuilt from the staged bytes. */
  private async liveAt(row: UploadRow, meta: UploadMeta, key: Buffer | null, offset: number) {
    const known = this.live.get(row.id);
    if (known && known.offset === offset) return known;
    const hash = createHash("sha256");
    if (offset > 0) {
      const decipher = meta.iv && key ? ctrAt(key, meta.iv, 0) : null;
      const prefix = fs.createReadStream(this.blobs.stagingPath(row.id), {
        start: 0,
        end: offset - 1,
        highWaterMark: 1024 * 1024,
      });
      for await (const chunk of prefix as AsyncIterable<Buffer>)
        hash.update(decipher ? decipher.update(chunk) : chunk);
    }
    const live: Live = {
      offset,
      hash,
      cipher: meta.iv && key ? ctrAt(key, meta.iv, offset) : null,
    };
    this.live.set(row.id, live);
    return live;
  }

  /**
   * The last byte arrived: checks size and SHA-256, then commits the file, the upload's row, the
   * transfer's counters and the usage record in one transaction (commitUpload). A second call for a committed
   * upload (a client that resent its last request after a crash) answers the same and commits
   * nothing. Returns the committed SHA-256.
   */
  async finish(id: string): Promise<string> {
    const { key } = current();
    const row = uploadById(this.deps.db, id)!;
    if (row.status === "committed") return row.sha256!;
    const meta = JSON.parse(row.metadata) as UploadMeta;
    const size = row.size ?? 0;
    if (row.multipart && this.writer) {
      const sha256 = await this.writer.finish(id, size);
      if (meta.expectedSha256 && meta.expectedSha256 !== sha256) {
        this.fail(id, "checksum_mismatch");
        throw checksumMismatch("file", meta.expectedSha256, sha256);
      }
      return (await commitUpload(this.deps, { uploadId: id, size, sha256 })).sha256;
    }
    const staging = this.blobs.stagingPath(id);
    // An empty file never had a write to make its staging file.
    if (size === 0) fs.writeFileSync(staging, "", { mode: PRIVATE_FILE_MODE });
    const staged = this.stagedLength(id);
    if (staged !== size)
      throw new NodeError(409, "validation_failed", `Received ${staged} of ${size} bytes`);
    const live = await this.liveAt(row, meta, key, size);
    const sha256 = live.hash.copy().digest("hex");
    if (meta.expectedSha256 && meta.expectedSha256 !== sha256) {
      this.fail(id, "checksum_mismatch");
      throw checksumMismatch("file", meta.expectedSha256, sha256);
    }
    // The database's side, re-checked in one transaction: the same call a standalone node makes.
    const committed = await commitUpload(this.deps, { uploadId: id, size, sha256 });
    this.live.delete(id);
    return committed.sha256;
  }

  /** Ends an upload without committing it and drops its staged bytes. */
  fail(id: string, error: string) {
    endUpload(this.deps.db, id, "failed", this.deps.clock.now(), { error });
    this.discardStaging(id);
    void this.letGo(id);
  }

  /** tus termination: the upload ends and its staged bytes go. */
  async remove(id: string): Promise<void> {
    endUpload(this.deps.db, id, "cancelled", this.deps.clock.now());
    this.discardStaging(id);
    await this.letGo(id);
  }

  /**
   * An ended upload's bucket side: its parts aborted at once. Best effort: what fails here the
   * cleanup's sweep lets go later (node.workers.ts), so an ended upload leaves no parts.
   */
  private async letGo(id: string) {
    const row = uploadById(this.deps.db, id);
    const parts = row && multipartOf(row);
    if (!parts || !this.parts) return;
    this.writer?.discardLocal(parts);
    await this.parts
      .release(parts)
      .then(() => clearMultipart(this.deps.db, id))
      .catch((err) => this.deps.log.warn("an ended upload's parts stay for the sweep", { err }));
  }

  discardStaging(id: string) {
    this.live.delete(id);
    fs.rmSync(this.blobs.stagingPath(id), { force: true });
  }
}
