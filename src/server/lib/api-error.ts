import type { ErrorCode } from "@/contract/common";
import { pathProblem } from "@/contract/rules";

/** A failure the client caused or must know about; rendered as the spec's error envelope. */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 416 | 429 | 500 | 503,
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
  }
}

export const notFound = (what: string, details: Record<string, unknown> | null = null) =>
  new ApiError(404, "not_found", `${what} was not found`, details);

/** One entry of a validation failure's `details.issues`: the field, why, and a stable code. */
export type Issue = { field: string; message: string; code: string };

type IssueOptions = {
  /** The issue's own (shorter) message, when it differs from the error's. */
  issue?: string;
  /** More of `details`, beside `issues`. */
  details?: Record<string, unknown>;
};

/**
 * 400 `validation_failed`. One field: its message (the issue's too, unless `issue` gives a
 * shorter one) and code, with optional further details. Several issues at once: the message
 * defaults to theirs joined.
 */
export function validationFailed(
  field: string,
  message: string,
  code?: string,
  options?: IssueOptions,
): ApiError;
export function validationFailed(issues: Issue[], message?: string): ApiError;
export function validationFailed(
  what: string | Issue[],
  message?: string,
  code = "invalid",
  { issue, details }: IssueOptions = {},
) {
  const issues =
    typeof what === "string" ? [{ field: what, message: issue ?? message!, code }] : what;
  const text = message ?? issues.map((i) => i.message).join("; ");
  return new ApiError(400, "validation_failed", text, { issues, ...details });
}

export const pathRejected = (field: string, message: string) =>
  new ApiError(400, "path_rejected", message, {
    issues: [{ field, message, code: "path_rejected" }],
  });

/**
 * A list's length held to its schema's bounds where no schema did (another module's call), with
 * the schema's issue codes, so that caller hears what a request with the list would have.
 */
export function checkCount(field: string, count: number, max: number) {
  if (count < 1 || count > max)
    throw validationFailed(
      field,
      `${field}: 1 to ${max} items, not ${count}`,
      count < 1 ? "too_small" : "too_big",
    );
}

/** A workspace path held to the path rules where no schema did: `path_rejected` naming the field. */
export function checkPath(field: string, path: string) {
  const problem = pathProblem(path);
  if (problem) throw pathRejected(field, `Path ${problem}`);
}

/** A write the disk had no room for: the file system's or the database's on it. */
export function isDiskFull(err: unknown) {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "ENOSPC" || code === "EDQUOT" || code === "SQLITE_FULL";
}
