import fs from "node:fs";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  type S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import type { Config } from "@/server/env";
import { s3Client } from "@/server/modules/files/s3-blob-store";

/** One part in the bucket: its number, the ETag S3 answered, and how many bytes it holds. */
export interface Part {
  n: number;
  etag: string;
  size: number;
}

/**
 * An upload's bucket side, kept on its `transfer_uploads` row (`multipart`) so any node can
 * resume it without listing parts (docs/scale-out.md, Uploads on S3). Hash states are
 * hash-wasm's saved SHA-256 states (base64) of the plaintext received so far.
 */
export interface MultipartState {
  /** Where the parts assemble: `uploads/<upload id>`; the commit copies it to its content key. */
  key: string;
  /** S3's multipart upload id, made with the first full part (none for a file within one). */
  s3UploadId: string | null;
  partBytes: number;
  parts: Part[];
  /** The hash state after the parts' bytes. */
  partsHash: string;
  /**
   * Bytes after the parts, not yet a part: in a file on one node's disk (`file`, a name of its
   * own so no other node's file is ever taken for it), with the hash state after them. A node
   * without that file resumes from the parts' end.
   */
  tail: { file: string; bytes: number; hash: string } | null;
  /** The parts were assembled into `key` (CompleteMultipartUpload answered). */
  completed: boolean;
}

/** S3's floor for every part but the last. */
const MIN_PART_BYTES = 5 * 1024 * 1024;
/** Our part: bigger parts mean fewer requests, and a node holds up to one per open upload. */
export const PART_BYTES = 8 * 1024 * 1024;
const MAX_PARTS = 10_000;

/** Parts of 8 MiB, larger (whole MiB) for a file that would need more than S3's 10,000. */
export function partBytesFor(size: number) {
  const mib = 1024 * 1024;
  return Math.max(PART_BYTES, MIN_PART_BYTES, Math.ceil(size / MAX_PARTS / mib) * mib);
}

export const partsBytes = (s: MultipartState) => s.parts.reduce((sum, p) => sum + p.size, 0);

const isNotFound = (err: unknown) =>
  (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/** The multipart calls the node makes, on the files store's bucket and S3 client. */
export class BucketParts {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: Extract<Config["blobStore"], { kind: "s3" }>["s3"]) {
    this.client = s3Client(settings);
    this.bucket = settings.bucket;
  }

  async begin(key: string) {
    const made = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }),
    );
    return made.UploadId!;
  }

  /** Sends a part from a local file; a part number sent again replaces the earlier bytes. */
  async send(s: MultipartState, n: number, file: string, size: number): Promise<Part> {
    const sent = await this.client.send(
      new UploadPartCommand({
        Bucket: this.bucket,
        Key: s.key,
        UploadId: s.s3UploadId!,
        PartNumber: n,
        ContentLength: size,
        Body: fs.createReadStream(file),
      }),
    );
    return { n, etag: sent.ETag!, size };
  }

  /**
   * Assembles the recorded parts. A completion that went through before its answer was recorded
   * (a node killed between the two) finds no upload the second time: the object is there.
   */
  async complete(s: MultipartState) {
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: s.key,
          UploadId: s.s3UploadId!,
          MultipartUpload: { Parts: s.parts.map((p) => ({ PartNumber: p.n, ETag: p.etag })) },
        }),
      );
    } catch (err) {
      if ((await this.size(s.key)) !== partsBytes(s)) throw err;
    }
  }

  /** Lets an ended upload's bucket side go: its parts (aborted), or its assembled object. */
  async release(s: MultipartState) {
    if (s.completed)
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: s.key }));
    else if (s.s3UploadId)
      await this.client
        .send(
          new AbortMultipartUploadCommand({
            Bucket: this.bucket,
            Key: s.key,
            UploadId: s.s3UploadId,
          }),
        )
        .catch((err) => {
          // Aborted before (its answer lost): nothing is left to let go.
          if (!isNotFound(err)) throw err;
        });
  }

  private async size(key: string) {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }
}

/** The node's bucket parts when the blob store is S3; null on disk (uploads stage whole there). */
export const bucketPartsFor = (config: Pick<Config, "blobStore">) =>
  config.blobStore.kind === "s3" ? new BucketParts(config.blobStore.s3) : null;
