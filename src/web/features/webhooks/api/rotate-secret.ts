import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@/web/lib/api-client";
import { webhookPath } from "./webhooks-keys";

/** Nothing cached changes: the secret is never part of an endpoint as listed. */
export function useRotateSecretMutation() {
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<{ id: string; secret: string }>(webhookPath(id, "/rotate-secret"), {
        method: "POST",
      }),
  });
}
