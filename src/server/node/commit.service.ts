import fs from "node:fs";
import { terminalTransferStates } from "@/contract/transfers";
import { ApiError, validationFailed } from "@/server/lib/api-error";
import { mimeFor } from "@/server/modules/files/media-types";
import { queueLanded } from "@/server/modules/media/render.service";
import { storedScope, withinGrant } from "@/server/modules/transfers/transfer-access";
import {
  recordCommittedFile,
  type TransferRow,
  transferRow,
} from "@/server/modules/transfers/transfers.repository";
import { bucketPartsFor, partsBytes } from "./multipart";
import { multipartOf } from "./multipart-writer";
import {
  clearMultipart,
  endUpload,
  insertUsage,
  type UploadMeta,
  type UploadRow,
  uploadById,
} from "./node.repository";
import type { NodeDeps } from "./node-deps";
import type { Protection } from "./protection";
import { storedName } from "./protection";

/** What a node asks to commit: an upload whose bytes it staged in full, and what it measured. */
export interface CommitRequest {
  uploadId: string;
  size: number;
  sha256: string;
}

export interface CommitResult {
  uploadId: string;
  sha256: string;
  /** false: the upload was committed before (a replayed commit); nothing was written now. */
  committed: boolean;
}

/**
 * The last step of an upload (docs/data-node.md, The commit rule), one transaction that
 * re-checks everything against the database: the upload is this node's to commit and still
 * open, its transfer has not ended, its path is in the transfer's scope, and the size and SHA-256
 * are the declared ones (and the staged file's). Idempotent per upload: a replay answers the
 * first commit's SHA-256 and writes nothing. The in-process node calls it; a standalone node
 * through `POST /internal/v1/uploads/{id}/commit` (internal.routes.ts).
 */
export async function commitUpload(deps: NodeDeps, req: CommitRequest): Promise<CommitResult> {
  const { db, clock, files } = deps;
  const staging = files.blobs.stagingPath(req.uploadId);
  // The bytes go into the store (a bucket) before the transaction that references them. They
  // are content-addressed, so the bytes of a commit refused below are only garbage, swept.
  const before = uploadById(db, req.uploadId);
  // Assembled from S3 multipart parts (docs/scale-out.md, Uploads on S3): copied in the bucket.
  const assembled = before ? inBucket(before) : null;
  // Parts not yet assembled are refused below (their size counts as none staged).
  const persisted =
    before?.status === "uploading" && (!assembled || assembled.completed)
      ? await files.blobs.persist({
          ...stagedOf(before, transferRow(db, before.transfer_id)!, req, staging),
          ...(assembled ? { sourceKey: assembled.key } : {}),
        })
      : null;
  const result = db
    .transaction((): CommitResult => {
      const row = uploadById(db, req.uploadId);
      if (!row) throw new ApiError(404, "not_found", "No such upload", { uploadId: req.uploadId });
      if (row.status === "committed")
        return { uploadId: row.id, sha256: row.sha256!, committed: false };
      const transfer = transferRow(db, row.transfer_id)!;
      if (terminalTransferStates.includes(transfer.status))
        throw new ApiError(401, "expired_token", `This transfer is ${transfer.status}`, {
          reason: "transfer_ended",
          status: transfer.status,
        });
      if (row.status !== "uploading")
        throw new ApiError(409, "conflict", `This upload is ${row.status}`, {
          uploadId: row.id,
          status: row.status,
        });
      if (!withinGrant(storedScope(db, transfer), row.path))
        throw new ApiError(403, "forbidden", `"${row.path}" is outside this transfer`, {
          reason: "outside_transfer",
          path: row.path,
        });
      const meta = JSON.parse(row.metadata) as UploadMeta;
      const parts = inBucket(row);
      const staged = parts
        ? parts.completed
          ? partsBytes(parts)
          : -1
        : (fs.statSync(staging, { throwIfNoEntry: false })?.size ?? -1);
      if (row.size !== req.size || staged !== req.size)
        throw mismatch("size", `The upload is ${row.size} bytes, ${staged} staged`);
      if (meta.expectedSha256 && meta.expectedSha256 !== req.sha256)
        throw mismatch("sha256", `The declared SHA-256 is ${meta.expectedSha256}`);
      const protection = protectionOf(meta, transfer, req);
      const now = clock.now();
      endUpload(db, row.id, "committed", now, { sha256: req.sha256 });
      recordCommittedFile(db, transfer.id, req.size);
      insertUsage(db, {
        usage_id: transfer.usage_id,
        workspace_id: transfer.workspace_id,
        transfer_id: transfer.id,
        direction: "send",
        bytes: req.size,
        recorded_at: now,
      });
      // Last: it moves the bytes into the store once everything above has been written.
      // Persisted above: an upload still open here was open then (it only moves forward).
      files.commitStaged(
        row.workspace_id,
        row.path,
        persisted ?? stagedOf(row, transfer, req, staging),
        {
          ...(meta.mtime !== undefined ? { modifiedAt: meta.mtime } : {}),
          protection: protection ? JSON.stringify(protection) : null,
        },
      );
      // A video or audio file that landed (a transfer's, a portal upload's) queues its proxies.
      queueLanded(deps, row.workspace_id, {
        sha256: req.sha256,
        mime: mimeFor(row.path),
        path: row.path,
        protected: protection !== null,
      });
      return { uploadId: row.id, sha256: req.sha256, committed: true };
    })
    .immediate();
  if (result.committed && assembled?.completed) {
    // The content key has its copy; the assembled object goes (or the cleanup's sweep takes it).
    await bucketPartsFor(deps.config)
      ?.release(assembled)
      .then(() => clearMultipart(db, req.uploadId))
      .catch((err) => deps.log.warn("an upload's assembled object stays for the sweep", { err }));
  }
  return result;
}

/** The upload's multipart state when its bytes are in the bucket's parts, not a staged file. */
function inBucket(row: UploadRow) {
  const s = multipartOf(row);
  return s?.s3UploadId ? s : null;
}

/** The content protection of an upload's bytes, when its transfer has a password. */
function protectionOf(
  meta: UploadMeta,
  transfer: TransferRow,
  req: CommitRequest,
): Protection | null {
  return meta.iv && meta.keyCheck
    ? {
        alg: "aes-256-ctr",
        salt: transfer.protection_salt!,
        iv: meta.iv,
        keyCheck: meta.keyCheck,
        sha256: req.sha256,
        size: req.size,
      }
    : null;
}

/** The staged blob an upload commits, under its stored name (encrypted content's own). */
function stagedOf(row: UploadRow, transfer: TransferRow, req: CommitRequest, staging: string) {
  const protection = protectionOf(JSON.parse(row.metadata) as UploadMeta, transfer, req);
  return {
    sha256: req.sha256,
    size: req.size,
    tempPath: staging,
    name: storedName(req.sha256, protection),
  };
}

const mismatch = (field: "size" | "sha256", message: string) => {
  const err = validationFailed(
    field,
    message,
    `${field === "size" ? "size" : "checksum"}_mismatch`,
  );
  return new ApiError(409, err.code, err.message, err.details);
};
