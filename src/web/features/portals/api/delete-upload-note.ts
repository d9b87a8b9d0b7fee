import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/web/lib/api-client";
import { currentWorkspaceId } from "@/web/stores/session-store";
import { portalsKeys, uploadNotesPath } from "./portals-keys";

/** Deletes one of one's own review notes (the service refuses another's: 403). */
export function useDeleteUploadNoteMutation(uploadId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (noteId: string) =>
      apiRequest<void>(uploadNotesPath(uploadId, `/${encodeURIComponent(noteId)}`), {
        method: "DELETE",
      }),
    onSettled: () =>
      queryClient.invalidateQueries({
        queryKey: portalsKeys.notes(currentWorkspaceId(), uploadId),
      }),
  });
}
