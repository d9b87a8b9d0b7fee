import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { OutboxMessage } from "@/contract/mail";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { sharePath, sharesKeys } from "./shares-keys";

/** Mails the personal links again: to `recipients`, or (omitted) to every recipient. */
export function useResendShareMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, recipients }: { id: string; recipients?: string[] }) =>
      apiRequest<{ messages: OutboxMessage[] }>(sharePath(id, "/resend"), {
        method: "POST",
        body: { recipients },
      }),
    onSuccess: (_, { id }) => {
      const workspaceId = currentWorkspaceId();
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: sharesKeys.one(workspaceId, id) }),
        queryClient.invalidateQueries({ queryKey: sharesKeys.outbox(workspaceId) }),
      ]);
    },
  });
}
