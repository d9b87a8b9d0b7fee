import { ApiError } from "@/browser/api-error";
import type { KeyInfo } from "@/contract/auth";
import { apiRequest, NetworkError } from "@/web/lib/api-client";
import { fetchKeyInfo } from "./get-key-info";

export interface VerifyKeyInput {
  baseUrl: string;
  apiKey: string;
  /** Needed only when the service does not offer `GET /auth/key`. */
  workspaceId?: string;
}

export type VerifyKeyResult =
  | { status: "ok"; workspaceId: string; keyInfo: KeyInfo | null }
  | { status: "needs-workspace" };

/** The page's Content-Security-Policy (`connect-src`) does not let the console call `origin`. */
export class BlockedByPolicyError extends Error {
  constructor(readonly origin: string) {
    super(`This console's Content-Security-Policy does not allow calls to ${origin}`);
    this.name = "BlockedByPolicyError";
  }
}

/**
 * The one call that checks a key before the console goes on. Against a service without the
 * extension, a cheap listing call proves the key and the workspace id together: a 403 for a
 * missing scope still proves both, a workspace mismatch does not.
 */
export async function verifyKey(input: VerifyKeyInput): Promise<VerifyKeyResult> {
  const refusals = watchRefusedConnections();
  try {
    return await verify(input);
  } catch (error) {
    const origin = new URL(input.baseUrl, window.location.href).origin;
    if (error instanceof NetworkError && (await refusals.refused(origin))) {
      throw new BlockedByPolicyError(origin);
    }
    throw error;
  } finally {
    refusals.stop();
  }
}

async function verify(input: VerifyKeyInput): Promise<VerifyKeyResult> {
  const connection = { baseUrl: input.baseUrl, apiKey: input.apiKey };
  const info = await fetchKeyInfo(connection);
  if (info) return { status: "ok", workspaceId: info.workspace.id, keyInfo: info };
  if (!input.workspaceId) return { status: "needs-workspace" };
  try {
    await apiRequest(`/workspaces/${encodeURIComponent(input.workspaceId)}/files`, {
      query: { count: 1 },
      connection,
    });
  } catch (error) {
    const scopeOnly =
      error instanceof ApiError && error.status === 403 && error.requiredScopes.length > 0;
    if (!scopeOnly) throw error;
  }
  return { status: "ok", workspaceId: input.workspaceId, keyInfo: null };
}

/**
 * A connection the page's CSP refuses fails like a service that is down (`Failed to fetch`); only
 * the `securitypolicyviolation` event tells them apart, and Chromium dispatches it a moment
 * after the fetch has already failed, so `refused` waits briefly for it.
 */
function watchRefusedConnections() {
  const refusedOrigins = new Set<string>();
  const onViolation = (event: SecurityPolicyViolationEvent) => {
    if (event.effectiveDirective !== "connect-src") return;
    try {
      refusedOrigins.add(new URL(event.blockedURI).origin);
    } catch {
      // "inline", "eval" and the like name no address.
    }
  };
  document.addEventListener("securitypolicyviolation", onViolation);
  return {
    async refused(origin: string) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return refusedOrigins.has(origin);
    },
    stop: () => document.removeEventListener("securitypolicyviolation", onViolation),
  };
}
