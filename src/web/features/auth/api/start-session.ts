import type { QueryClient } from "@tanstack/react-query";
import type { KeyInfo } from "@/contract/auth";
import { type Session, useSessionStore } from "@/web/stores/session-store";
import { authKeys } from "./auth-keys";
import { verifyKey } from "./verify-key";

/** Opens the session a checked key allows, keeping what the check learned about the key. */
export function startSession(queryClient: QueryClient, session: Session, keyInfo: KeyInfo | null) {
  if (keyInfo) {
    queryClient.setQueryData(authKeys.keyInfo(session.baseUrl, session.apiKey.slice(-6)), keyInfo);
  }
  useSessionStore.getState().signIn(session);
}

/**
 * Checks the sign-in link's key (taken from the URL fragment) before the connect screen loads,
 * so the printed link opens the console without downloading that screen. False when the key
 * needs the screen after all (refused, or a service that wants a workspace id): it checks the
 * key again there and says why.
 */
export async function startSessionFromLink(queryClient: QueryClient): Promise<boolean> {
  const apiKey = useSessionStore.getState().pendingKey;
  if (!apiKey) return false;
  const baseUrl = `${window.location.origin}/v1`;
  const result = await verifyKey({ baseUrl, apiKey }).catch(() => null);
  if (result?.status !== "ok") return false;
  startSession(
    queryClient,
    { baseUrl, apiKey, workspaceId: result.workspaceId, remember: false },
    result.keyInfo,
  );
  return true;
}
