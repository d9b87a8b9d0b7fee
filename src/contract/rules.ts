/**
 * The contract's rules as plain functions and constants, without zod. The zod schemas are built
 * from these; the console imports this module (and only types from the others) so that its
 * first download carries no schema library. See docs/architecture.md, "The console's budget".
 */

/** Every scope a key can carry (spec, Authentication). */
export const scopes = [
  "files:read",
  "files:write",
  "shares:write",
  "portals:write",
  "receipts:read",
  "webhooks:manage",
  "usage:read",
] as const;
export type Scope = (typeof scopes)[number];

export const API_KEY_PREFIX = "svc_sk_";
/** `svc_sk_` followed by at least 32 base62 characters (spec Authentication 1). */
export const apiKeyPattern = /^svc_sk_[A-Za-z0-9]{32,}$/;

/**
 * Why a workspace path is rejected, or null when it is acceptable. Shared by the service
 * (which answers `path_rejected`) and the console (which checks before sending).
 */
export function pathProblem(path: string): string | null {
  if (path === "") return null;
  if (path.startsWith("/")) return "must be relative to the workspace root (no leading /)";
  if (path.includes("\\")) return "must use / between folders, not \\";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we reject
  if (/[\u0000-\u001f\u007f]/.test(path)) return "must not contain control characters";
  const segments = path.split("/");
  if (segments.some((s) => s === "")) return "must not contain empty segments (// or a trailing /)";
  if (segments.some((s) => s === "." || s === "..")) return "must not contain . or .. segments";
  return null;
}

export const MAX_PATH_LENGTH = 4096;
export const MAX_NAME_LENGTH = 255;

/** Why a single name inside a folder is not acceptable (spec rename bounds), or null. */
export function nameProblem(name: string): string | null {
  if (name.length === 0) return "A name cannot be empty";
  if (name.length > MAX_NAME_LENGTH) return `A name is at most ${MAX_NAME_LENGTH} characters`;
  if (name.includes("/")) return "A name cannot contain /";
  if (name === "." || name === "..") return "A name cannot be . or ..";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we reject
  if (/[\u0000-\u001f\u007f\\]/.test(name)) return "A name cannot contain control characters or \\";
  return null;
}

export const fileSortFields = ["name", "size", "modified"] as const;
export type FileSortField = (typeof fileSortFields)[number];
export const sortOrders = ["asc", "desc"] as const;
export type SortOrder = (typeof sortOrders)[number];
