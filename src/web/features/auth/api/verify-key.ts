import { useMutation } from "@tanstack/react-query";
import type { KeyInfo } from "@/contract/auth";
import { ApiError, apiRequest } from "@/web/lib/api-client";
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

/**
 * The one call that checks a key before the console goes on. Against a service without the
 * extension, a cheap listing call proves the key and the workspace id together: a 403 for a
 * missing scope still proves both, a workspace mismatch does not.
 */
export async function verifyKey(input: VerifyKeyInput): Promise<VerifyKeyResult> {
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

export function useVerifyKeyMutation() {
  return useMutation({ mutationFn: verifyKey });
}
