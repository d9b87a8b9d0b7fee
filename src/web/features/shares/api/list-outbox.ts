import { queryOptions, useQuery } from "@tanstack/react-query";
import type { OutboxMessage } from "@/contract/mail";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { sharesKeys } from "./shares-keys";

/** Mails waiting, queued, sent or failed, newest first (the first page). */
export const outboxQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: sharesKeys.outbox(workspaceId),
    queryFn: ({ signal }) =>
      apiRequest<{ items: OutboxMessage[]; next: string | null }>(workspacePath("/outbox"), {
        signal,
      }),
    staleTime: 5_000,
  });

export function useOutboxQuery(workspaceId: string, enabled: boolean) {
  return useQuery({ ...outboxQueryOptions(workspaceId), enabled });
}
