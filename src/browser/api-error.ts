import type { FieldIssue } from "@/contract/common";
import { type Scope, scopes } from "@/contract/rules";

/**
 * A failure the service reported in its envelope `{error:{code,message,details}}`: one class for
 * the console and the public pages, so a refusal reads the same wherever it is caught.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> | null,
    readonly requestId: string | null = null,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** Per-field problems of `validation_failed` / `path_rejected`. */
  get fieldIssues(): FieldIssue[] {
    const issues = this.details?.issues;
    return Array.isArray(issues)
      ? issues.filter((i): i is FieldIssue => typeof i?.field === "string")
      : [];
  }

  /** The scopes, any one of which would have allowed a 403'd call. */
  get requiredScopes(): Scope[] {
    const required = this.details?.requiredScopes;
    return Array.isArray(required)
      ? required.filter((s): s is Scope => (scopes as readonly unknown[]).includes(s))
      : [];
  }

  /** `details.reason`: why a key, a link or a portal is refused, or a password. */
  get reason(): string | null {
    return typeof this.details?.reason === "string" ? this.details.reason : null;
  }
}
