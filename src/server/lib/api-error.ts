import type { ErrorCode } from "@/contract/common";

/** A failure the client caused or must know about; rendered as the spec's error envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 503,
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
  }
}

export const notFound = (what: string, details: Record<string, unknown> | null = null) =>
  new ApiError(404, "not_found", `${what} was not found`, details);

export const validationFailed = (field: string, message: string, code = "invalid") =>
  new ApiError(400, "validation_failed", message, { issues: [{ field, message, code }] });

export const pathRejected = (field: string, message: string) =>
  new ApiError(400, "path_rejected", message, {
    issues: [{ field, message, code: "path_rejected" }],
  });

/** A write the disk had no room for: the file system's or the database's on it. */
export function isDiskFull(err: unknown) {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "ENOSPC" || code === "EDQUOT" || code === "SQLITE_FULL";
}
