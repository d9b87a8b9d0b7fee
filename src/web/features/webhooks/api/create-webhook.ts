import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreatedWebhook, CreateWebhookBody } from "@/contract/webhooks";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { webhooksKeys } from "./webhooks-keys";

export function useCreateWebhookMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWebhookBody) =>
      apiRequest<CreatedWebhook>(workspacePath("/webhooks"), { method: "POST", body }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: webhooksKeys.list(currentWorkspaceId()) }),
  });
}
