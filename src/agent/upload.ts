import fs from "node:fs";
import { Agent } from "node:http";
import { Readable } from "node:stream";
import {
  DefaultHttpStack,
  type DetailedError,
  type FileReader,
  type FileSource,
  Upload,
  type UrlStorage,
} from "tus-js-client";
import { CONTENT_PASSWORD_HEADER, type TransferSpec } from "@/contract/transfers";
import { AgentError } from "./service";

/** Header the node puts on the response that commits a file: the hash it stored. */
export const FILE_SHA256_HEADER = "Consign-File-Sha256";

/**
 * Retries that outlast a node restart (kill -9, then the service or `npm run node` started
 * again): about a minute in all before the file is given up.
 */
const RETRY_DELAYS = [0, 500, 1000, 2000, 4000, 8000, 15_000, 30_000];

/** Spreads bytes over time so all files in flight together stay under `bytesPerSecond`. */
export class RateLimit {
  private next = 0;
  constructor(private readonly bytesPerSecond: number) {}

  /** Resolves when `n` more bytes may go. */
  wait(n: number) {
    const now = performance.now();
    this.next = Math.max(this.next, now) + (n * 1000) / this.bytesPerSecond;
    return new Promise((r) => setTimeout(r, this.next - now));
  }

  /** The stream's chunks, each let through when the rate allows (errors pass through). */
  async *through(source: AsyncIterable<Buffer> | Iterable<Buffer>) {
    for await (const chunk of source) {
      await this.wait(chunk.length);
      yield chunk;
    }
  }
}

/**
 * tus-js-client reads a Node file through a stream per chunk; this does the same from a path
 * (so no stream is opened before the file's turn) with 1 MiB reads (64 KiB reads cost a
 * tenth of a gigabyte-per-second upload), and through the rate limit when there is one.
 * A Buffer (a small file already read) is sliced as it is.
 */
function fileReader(limit: RateLimit | null): FileReader {
  return {
    async openFile(input: string | Buffer): Promise<FileSource> {
      if (Buffer.isBuffer(input))
        return {
          size: input.length,
          async slice(start: number, end: number) {
            const bytes = input.subarray(start, end);
            // The HTTP stack sends `size` as the Content-Length.
            const value = Object.assign(limit ? Readable.from(limit.through([bytes])) : bytes, {
              size: bytes.length,
            });
            return { value, done: end >= input.length };
          },
          close() {},
        };
      const { size } = await fs.promises.stat(input);
      return {
        size,
        async slice(start: number, end: number) {
          const file = fs.createReadStream(input, {
            start,
            end: Math.max(start, end - 1),
            highWaterMark: 1 << 20,
          });
          const value = limit ? Readable.from(limit.through(file)) : file;
          // The HTTP stack sends `size` as the Content-Length.
          Object.assign(value, { size: end - start });
          return { value: end > start ? value : null, done: end >= size };
        },
        close() {},
      };
    },
  };
}

// One keep-alive pool for every upload: 10,000 small files must not open 10,000 connections.
const httpStack = new DefaultHttpStack({ agent: new Agent({ keepAlive: true }) });

/** Whether tus-js-client should try a failed request again: the network, the node's 5xx, busy. */
function shouldRetry(err: DetailedError) {
  const status = err.originalResponse?.getStatus() ?? 0;
  return status === 0 || status >= 500 || status === 409 || status === 423 || status === 429;
}

/** A tus failure as an AgentError carrying the node's error envelope when it sent one. */
function asAgentError(err: Error | DetailedError, what: string): AgentError {
  const res = "originalResponse" in err ? err.originalResponse : null;
  if (!res) return new AgentError(`${what}: ${err.message}`, 0, "network");
  const status = res.getStatus();
  try {
    const { error } = JSON.parse(res.getBody()) as {
      error: { code: string; message: string; details: unknown };
    };
    return new AgentError(`${what}: ${error.message}`, status, error.code, error.details);
  } catch {
    return new AgentError(`${what}: HTTP ${status} ${res.getBody().slice(0, 200)}`, status, "http");
  }
}

export interface UploadInput {
  local: string;
  /** The file's bytes when already read (a small file); else it is read from `local`. */
  data?: Buffer;
  workspacePath: string;
  size: number;
  mtimeMs: number;
  sha256: string;
}

export interface UploadOptions {
  spec: Pick<TransferSpec, "transferId" | "node" | "token" | "chunkSizeBytes">;
  password?: string;
  /** Where tus upload URLs are kept so a later run resumes; none: uploads start over. */
  urlStorage?: UrlStorage;
  limit?: RateLimit | null;
  /** Bytes sent so far (a running figure for a progress bar). */
  onSent?: (bytes: number) => void;
  /** Bytes the node has confirmed (its upload offset). */
  onConfirmed?: (bytes: number) => void;
}

/**
 * Uploads one file to the spec's node by tus and resolves once the node has committed it with
 * the hash we computed. A stored upload URL for the same file is resumed from the node's offset.
 */
export async function uploadFile(file: UploadInput, opts: UploadOptions): Promise<void> {
  const chunkSize = opts.spec.chunkSizeBytes;
  // A file that fits one request is created with its bytes (creation-with-upload): there is
  // nothing to resume, so its URL is not stored.
  const oneRequest = file.size <= chunkSize;
  const what = `upload of ${file.workspacePath}`;
  const lastResponse = await new Promise<{ getHeader(h: string): string | undefined }>(
    (resolve, reject) => {
      const upload = new Upload((file.data ?? file.local) as never, {
        endpoint: opts.spec.node.uploads,
        chunkSize,
        uploadSize: file.size,
        metadata: {
          path: file.workspacePath,
          sha256: file.sha256,
          mtime: String(file.mtimeMs),
        },
        headers: {
          Authorization: `Bearer ${opts.spec.token}`,
          ...(opts.password ? { [CONTENT_PASSWORD_HEADER]: opts.password } : {}),
        },
        fingerprint: async () =>
          `${opts.spec.transferId}:${file.workspacePath}:${file.size}:${file.sha256}`,
        urlStorage: opts.urlStorage,
        storeFingerprintForResuming: !!opts.urlStorage && !oneRequest,
        removeFingerprintOnSuccess: true,
        uploadDataDuringCreation: oneRequest,
        retryDelays: RETRY_DELAYS,
        onShouldRetry: shouldRetry,
        fileReader: fileReader(opts.limit ?? null),
        httpStack,
        onProgress: (sent) => opts.onSent?.(sent),
        onChunkComplete: (_chunk, accepted) => opts.onConfirmed?.(accepted),
        onSuccess: ({ lastResponse }) => resolve(lastResponse),
        onError: (err) => reject(asAgentError(err, what)),
      });
      const start = async () => {
        if (opts.urlStorage && !oneRequest) {
          const previous = await upload.findPreviousUploads();
          if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
        }
        upload.start();
      };
      start().catch(reject);
    },
  );
  const committed = lastResponse.getHeader(FILE_SHA256_HEADER);
  if (committed !== undefined && committed !== file.sha256)
    throw new AgentError(
      `${what}: the node committed SHA-256 ${committed}, the file has ${file.sha256}`,
      0,
      "checksum_mismatch",
    );
  opts.onConfirmed?.(file.size);
}
