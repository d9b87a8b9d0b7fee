import { queryOptions, useQuery } from "@tanstack/react-query";
import type { UploadNotes } from "@/contract/portal-review";
import { apiRequest } from "@/web/lib/api-client";
import { portalsKeys, uploadNotesPath } from "./portals-keys";

/** An upload's review notes, oldest first (all of them: 500 at most). */
export const uploadNotesQueryOptions = (workspaceId: string, uploadId: string) =>
  queryOptions({
    queryKey: portalsKeys.notes(workspaceId, uploadId),
    queryFn: ({ signal }) => apiRequest<UploadNotes>(uploadNotesPath(uploadId), { signal }),
    staleTime: 5_000,
  });

export function useUploadNotesQuery(workspaceId: string, uploadId: string) {
  return useQuery(uploadNotesQueryOptions(workspaceId, uploadId));
}
