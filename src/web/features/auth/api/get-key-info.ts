import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError } from "@/browser/api-error";
import type { KeyInfo } from "@/contract/auth";
import { apiRequest, type Connection } from "@/web/lib/api-client";
import { useSessionStore } from "@/web/stores/session-store";
import { authKeys } from "./auth-keys";

/**
 * What the key is (extension `GET /auth/key`). Resolves to null on a service without the
 * extension, where the console knows only what the person typed.
 */
export async function fetchKeyInfo(connection?: Connection): Promise<KeyInfo | null> {
  try {
    return await apiRequest<KeyInfo>("/auth/key", { connection });
  } catch (error) {
    // Only the API's own refusal (its envelope) means "no such operation here"; a bare 404
    // page means the address is not the API at all.
    const refused = error instanceof ApiError && error.code !== "http_error";
    if (refused && (error.status === 404 || error.status === 405)) return null;
    throw error;
  }
}

export const keyInfoQueryOptions = (connection: Connection) =>
  queryOptions({
    queryKey: authKeys.keyInfo(connection.baseUrl, connection.apiKey.slice(-6)),
    queryFn: () => fetchKeyInfo(),
    // A key's scopes and expiry do not change while it is in use; 401 handling covers revocation.
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useKeyInfoQuery() {
  const session = useSessionStore((s) => s.session);
  return useQuery({
    ...keyInfoQueryOptions(session ?? { baseUrl: "", apiKey: "" }),
    enabled: session !== null,
  });
}
