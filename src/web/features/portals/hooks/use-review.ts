import { useCallback, useRef } from "react";
import type { ReviewDecision } from "@/contract/portal-rules";
import type { PortalUpload } from "@/contract/portals";
import { describeError } from "@/web/lib/api-client";
import { toast, useToastStore } from "@/web/stores/toast-store";
import { useReviewUploadMutation } from "../api/review-upload";
import {
  changesAnything,
  decisionToast,
  type ReviewNotes,
  reviewProblem,
  senderOf,
  type Undo,
  undoFor,
  undoneToast,
} from "../state/review-undo";

const verbs: Record<ReviewDecision, string> = {
  approved: "approve",
  rejected: "reject",
  pending: "set to pending",
};

/**
 * Decides an upload and says so at once, with Undo for the last decision only (an older toast
 * goes when a newer decision comes, so Undo never reaches past the one a reviewer just made).
 * Answers whether the queue may move on: false when the upload cannot be decided yet.
 */
export function useReview() {
  const review = useReviewUploadMutation();
  const lastToast = useRef<number | null>(null);
  const { mutateAsync } = review;

  return useCallback(
    (
      upload: PortalUpload,
      decision: ReviewDecision,
      notes?: ReviewNotes,
      /** The portal's `approvedPath`, when known: approving moves the folder there. */
      approvedPath?: string | null,
    ): boolean => {
      const problem = reviewProblem(upload);
      if (problem) {
        toast({ title: "Not ready for review", description: problem });
        return false;
      }
      if (!changesAnything(upload, decision, notes)) return true;
      const { dismiss } = useToastStore.getState();
      if (lastToast.current !== null) dismiss(lastToast.current);
      // Promises, not mutate()'s callbacks: those fire for the latest call only, and a reviewer
      // decides faster than the service answers.
      const sent = mutateAsync({ upload, decision, notes });
      const undo = undoFor(upload);
      // After the decision lands, or the two requests could reach the service out of order; a
      // refused decision needs no undo (its row is back already, and its error said so).
      const undoIt = (u: Undo) =>
        sent.then(
          (answer) =>
            mutateAsync({ upload: answer, decision: u.decision, notes: u.notes }).then(
              () => toast(undoneToast(upload)),
              (error) =>
                toast({
                  title: "Could not undo",
                  description: describeError(error),
                  tone: "error",
                }),
            ),
          () => undefined,
        );
      const shown = toast({
        ...decisionToast(upload, decision, approvedPath),
        action: undo ? { label: "Undo", onClick: () => void undoIt(undo) } : undefined,
      });
      lastToast.current = shown;
      sent.catch((error) => {
        dismiss(shown);
        toast({
          title: `Could not ${verbs[decision]} ${senderOf(upload)}’s upload`,
          description: describeError(error),
          tone: "error",
        });
      });
      return true;
    },
    [mutateAsync],
  );
}
