import type { QueryClient } from "@tanstack/react-query";

/**
 * The needs-attention summary (features/attention). Here, below every feature, because the
 * mutations that change what it lists live in other features (a review decision, a re-enabled
 * endpoint, a revoked or extended share) and each invalidates it after its own work.
 */
export const attentionKeys = {
  all: (workspaceId: string) => ["attention", workspaceId] as const,
};

/** Read the summary again now rather than at the next poll: something it lists changed. */
export const invalidateAttention = (queryClient: QueryClient, workspaceId: string) =>
  queryClient.invalidateQueries({ queryKey: attentionKeys.all(workspaceId) });
