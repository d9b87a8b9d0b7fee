import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateUploadNoteBody, UploadNote } from "@/contract/portal-review";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { portalsKeys, uploadNotesPath } from "./portals-keys";

/** Writes a review note on an upload, at a time or page of one of its files when given. */
export function useAddUploadNoteMutation(uploadId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateUploadNoteBody) =>
      apiRequest<UploadNote>(uploadNotesPath(uploadId), { method: "POST", body }),
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: portalsKeys.notes(currentWorkspaceId(), uploadId),
      }),
  });
}
