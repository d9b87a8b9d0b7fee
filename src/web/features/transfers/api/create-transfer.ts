import type { QueryClient } from "@tanstack/react-query";
import type { CreatedTransfer, CreateTransferBody } from "@/contract/transfers";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { transfersKeys, transfersPath } from "./transfers-keys";

/**
 * Creates a transfer and hands back its spec for the engine. The engine, not a component,
 * creates transfers, so this is a function rather than a hook; it refreshes the monitor's lists.
 */
export async function createTransfer(queryClient: QueryClient, body: CreateTransferBody) {
  const created = await apiRequest<CreatedTransfer>(transfersPath(), { method: "POST", body });
  void queryClient.invalidateQueries({ queryKey: transfersKeys.all(currentWorkspaceId()) });
  return created;
}
