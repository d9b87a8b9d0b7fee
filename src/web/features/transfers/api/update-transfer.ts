import type { QueryClient } from "@tanstack/react-query";
import { terminalTransferStates } from "@/contract/rules";
import type { Transfer, UpdateTransferBody } from "@/contract/transfers";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { transfersKeys, transfersPath } from "./transfers-keys";

/**
 * Reports a transfer's progress (the engine's PATCH). The answer replaces the cached record;
 * the lists are refreshed when the status changes, not on every counter.
 */
export async function updateTransfer(
  queryClient: QueryClient,
  id: string,
  body: UpdateTransferBody,
) {
  const transfer = await apiRequest<Transfer>(transfersPath(`/${encodeURIComponent(id)}`), {
    method: "PATCH",
    body,
  });
  const workspaceId = currentWorkspaceId();
  const before = queryClient.getQueryData<Transfer>(transfersKeys.one(workspaceId, id));
  queryClient.setQueryData(transfersKeys.one(workspaceId, id), transfer);
  if (before?.status !== transfer.status || terminalTransferStates.includes(transfer.status))
    void queryClient.invalidateQueries({
      queryKey: transfersKeys.all(workspaceId),
      predicate: (q) => q.queryKey[2] === "list",
    });
  return transfer;
}
