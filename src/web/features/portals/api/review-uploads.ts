import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BulkReviewResult } from "@/contract/portal-review";
import type { ReviewDecision } from "@/contract/portal-rules";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { portalsKeys } from "./portals-keys";

export interface BulkReviewVariables {
  uploadIds: string[];
  decision: ReviewDecision;
  note?: string;
}

/**
 * One decision for the queue's selection, in one request (`reviewPortalUploads`). Not shown
 * before the answer, unlike one decision: the answer names the uploads it could not decide.
 * Every list, portal and count is read again after it.
 */
export function useReviewUploadsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uploadIds, decision, note }: BulkReviewVariables) =>
      apiRequest<BulkReviewResult>(workspacePath("/portal-uploads/review"), {
        method: "POST",
        body: { uploadIds, decision, note: note || undefined },
      }),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: portalsKeys.all(currentWorkspaceId()) }),
  });
}
