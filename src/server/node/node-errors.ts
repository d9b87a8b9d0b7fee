import type { ErrorCode } from "@/contract/common";
import { ApiError, isDiskFull } from "@/server/lib/api-error";

/**
 * A refusal at the node. It carries statuses the service's API never uses (460 for a tus
 * checksum mismatch) and reads as a tus error too (`status_code`, `body`), so a refusal thrown
 * from inside @tus/server's handlers leaves with the same envelope as one thrown before them.
 */
export class NodeError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
  }

  get status_code() {
    return this.status;
  }

  get body() {
    return envelope(this.code, this.message, this.details);
  }
}

export const envelope = (code: string, message: string, details: unknown = null) =>
  JSON.stringify({ error: { code, message, details } });

/** The node's refusal for any error: an ApiError keeps its status and code, a full disk is 507. */
export function asNodeError(err: unknown): NodeError | null {
  if (err instanceof NodeError) return err;
  if (err instanceof ApiError) return new NodeError(err.status, err.code, err.message, err.details);
  if (isDiskFull(err)) return insufficientStorage("disk_full");
  return null;
}

/**
 * 507 Insufficient Storage: the disk filled up during the write (`disk_full`: the bytes that
 * reached it stay, and HEAD says where to resume), or it is below MIN_FREE_DISK_MB and the node
 * takes no new bytes (`free_space_floor`).
 */
export const insufficientStorage = (reason: "disk_full" | "free_space_floor") =>
  new NodeError(
    507,
    "insufficient_storage",
    reason === "disk_full"
      ? "The data node's disk is full; resume from the offset HEAD reports once there is room"
      : "The data node is low on disk space and takes no new bytes for now",
    { reason },
  );

/** tus 1.0 checksum extension: 460 Checksum Mismatch. */
export const checksumMismatch = (what: "chunk" | "file", expected: string, actual: string) =>
  new NodeError(
    460,
    "validation_failed",
    what === "chunk"
      ? "The chunk's Upload-Checksum does not match its bytes; it was not kept"
      : "The file's SHA-256 does not match the declared sha256; nothing was committed",
    {
      issues: [
        {
          field: what === "chunk" ? "Upload-Checksum" : "Upload-Metadata.sha256",
          message: `expected ${expected}, received ${actual}`,
          code: "checksum_mismatch",
        },
      ],
    },
  );

/** tus's own plain-text refusals, given the envelope: the code that best says what went wrong. */
export function codeForStatus(status: number): ErrorCode {
  if (status === 404 || status === 410) return "not_found";
  if (status === 401) return "unauthenticated";
  if (status === 403) return "forbidden";
  if (status >= 500) return "internal_error";
  return "validation_failed";
}

/** 413: an upload that would take its transfer past the totals it declared. */
export const beyondTotals = (field: "fileCount" | "totalBytes", declared: number, wanted: number) =>
  new NodeError(
    413,
    "validation_failed",
    `This upload would take the transfer past its declared ${field} (${declared})`,
    {
      issues: [
        {
          field: `Upload-Length`,
          message: `${field} is ${declared}; this upload makes it ${wanted}`,
          code: "beyond_totals",
        },
      ],
    },
  );
