import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReviewDecision } from "@/contract/portal-rules";
import type { Portal, PortalDetail, PortalUpload } from "@/contract/portals";
import { apiRequest } from "@/web/lib/api-client";
import { invalidateAttention } from "@/web/lib/query-keys/attention";
import { currentWorkspaceId } from "@/web/stores/session-store";
import type { ReviewNotes } from "../state/review-undo";
import { portalPath, portalsKeys, type UploadsFilter } from "./portals-keys";
import {
  decidedLocally,
  placeInDetail,
  placeInPages,
  placeInPortals,
  type UploadPages,
} from "./review-cache";

export interface ReviewVariables {
  /** The upload as the reviewer saw it: its status is what an undo goes back to. */
  upload: PortalUpload;
  decision: ReviewDecision;
  notes?: ReviewNotes;
}

const reviewKey = ["portals", "review"] as const;

export function reviewUpload({ upload, decision, notes = {} }: ReviewVariables) {
  return apiRequest<PortalUpload>(
    portalPath(upload.portalId, `/uploads/${encodeURIComponent(upload.id)}/review`),
    {
      method: "POST",
      body: {
        decision,
        note: notes.note || undefined,
        noteToSender: notes.noteToSender || undefined,
      },
    },
  );
}

/**
 * A decision shows at once: every cached view of the upload (each queue, the portal's page, the
 * portals list's count) takes its new state before the request leaves, is put back if the
 * service refuses, and is read again once no other decision is on its way (a refresh between
 * two quick decisions would show the second one's row undecided for a moment). Thumbnails are
 * keyed apart from `all`, so that refresh does not fetch them again.
 */
export function useReviewUploadMutation() {
  const queryClient = useQueryClient();
  const place = (previous: PortalUpload, next: PortalUpload) => {
    const workspaceId = currentWorkspaceId();
    for (const [key, data] of queryClient.getQueriesData<UploadPages>({
      queryKey: portalsKeys.uploadLists(workspaceId),
    })) {
      const filter = key[3] as UploadsFilter;
      queryClient.setQueryData(key, placeInPages(data, filter, previous, next));
    }
    queryClient.setQueryData<PortalDetail>(portalsKeys.one(workspaceId, next.portalId), (d) =>
      placeInDetail(d, previous, next),
    );
    queryClient.setQueryData<Portal[]>(portalsKeys.list(workspaceId), (list) =>
      placeInPortals(list, previous, next),
    );
  };
  return useMutation({
    mutationKey: reviewKey,
    mutationFn: reviewUpload,
    onMutate: async ({ upload, decision, notes }) => {
      await queryClient.cancelQueries({ queryKey: portalsKeys.all(currentWorkspaceId()) });
      const shown = decidedLocally(upload, decision, notes, new Date().toISOString());
      place(upload, shown);
      return { shown };
    },
    // Undone by putting this upload back, not by restoring a saved cache: another decision
    // made meanwhile must keep showing.
    onError: (_error, { upload }, context) => {
      if (context) place(context.shown, upload);
    },
    onSuccess: (answer, _variables, context) => {
      if (context) place(context.shown, answer);
    },
    onSettled: () => {
      void invalidateAttention(queryClient, currentWorkspaceId());
      if (queryClient.isMutating({ mutationKey: reviewKey }) > 1) return;
      return queryClient.invalidateQueries({ queryKey: portalsKeys.all(currentWorkspaceId()) });
    },
  });
}
