import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BulkSharesBody, BulkSharesResult } from "@/contract/shares";
import { apiRequest } from "@/web/lib/api-client";
import { invalidateAttention } from "@/web/lib/query-keys/attention";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { sharesKeys, sharesPath } from "./shares-keys";

/** Extends or revokes a selection of shares in one request; every list, share and receipt refreshes. */
export function useBulkSharesMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BulkSharesBody) =>
      apiRequest<BulkSharesResult>(sharesPath("/bulk"), { method: "POST", body }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sharesKeys.all(currentWorkspaceId()) }),
        invalidateAttention(queryClient, currentWorkspaceId()),
      ]),
  });
}
