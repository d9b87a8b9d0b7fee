import { type ReviewDecision, reviewableStatuses } from "@/contract/portal-rules";
import type { PortalUpload } from "@/contract/portals";

/** Who sent an upload, as a row and a toast name it. */
export const senderOf = (u: Pick<PortalUpload, "senderName" | "senderEmail">) =>
  u.senderName?.trim() || u.senderEmail || "Anonymous sender";

export const decisionDone: Record<ReviewDecision, string> = {
  approved: "Approved",
  rejected: "Rejected",
  pending: "Set to pending",
};

/** Why this upload cannot be decided now, or null. */
export function reviewProblem(u: PortalUpload): string | null {
  if (reviewableStatuses.includes(u.status)) return null;
  return u.status === "uploading"
    ? "Its files are still arriving: decide once they have all landed."
    : "This upload failed before its files landed: there is nothing to review.";
}

/**
 * Why approving this upload deserves a second thought, or null: its media check failed, or has
 * not given its verdict yet. Approving a passing upload (or one with no spec) stays one key.
 */
export function approvalRisk(u: PortalUpload): string | null {
  if (u.status === "approved") return null;
  const { status, problems } = u.specCheck;
  if (status === "failed")
    return `Its media check failed${problems[0] ? `: ${problems[0].message}` : ""}.`;
  if (status === "checking") return "Its media check has not finished: nothing was checked yet.";
  return null;
}

/**
 * A decision that changes nothing (approving what is approved) is not sent. A rejection is,
 * when a note is new: the note is what the reviewer meant to change.
 */
export function changesAnything(
  u: PortalUpload,
  decision: ReviewDecision,
  notes: ReviewNotes = {},
) {
  return (
    u.status !== decision ||
    (notes.note !== undefined && (notes.note || null) !== u.reviewNote) ||
    (notes.noteToSender !== undefined && (notes.noteToSender || null) !== u.noteToSender)
  );
}

/** A decision's two notes: the internal one, and the one the sender sees. */
export interface ReviewNotes {
  note?: string;
  noteToSender?: string;
}

export interface Undo {
  decision: ReviewDecision;
  notes?: ReviewNotes;
  /** false: the upload cannot go back exactly where it was. */
  exact: boolean;
}

/**
 * The request that puts an upload back as it was before a decision. The service takes only
 * `approved`, `rejected` or `pending`, so an upload decided straight from `received` goes back
 * to `pending` (still waiting for review, but not quite as it arrived); its notes are restored.
 */
export function undoFor(previous: PortalUpload): Undo | null {
  switch (previous.status) {
    case "approved":
    case "rejected":
    case "pending":
      return {
        decision: previous.status,
        notes: {
          note: previous.reviewNote ?? undefined,
          noteToSender: previous.noteToSender ?? undefined,
        },
        exact: true,
      };
    case "received":
      return { decision: "pending", exact: false };
    default:
      return null;
  }
}

/**
 * The toast for a decision: what happened, and what Undo does: the service moves a folder an
 * approval moved into the portal's `approvedPath` back, but cannot put `received` back (it is
 * not a decision).
 */
export function decisionToast(
  previous: PortalUpload,
  decision: ReviewDecision,
  approvedPath: string | null = null,
) {
  const undo = undoFor(previous);
  const moved =
    decision === "approved" && approvedPath !== null && previous.status !== "approved"
      ? `Its folder moves to ${approvedPath}.`
      : null;
  const inexact = undo !== null && !undo.exact;
  const undoNote = moved
    ? inexact
      ? "Undo moves it back and sets it to pending (not received)."
      : "Undo moves it back."
    : inexact
      ? "Undo sets it to pending: an upload cannot go back to received."
      : null;
  return {
    title: `${decisionDone[decision]}: ${senderOf(previous)}`,
    description: [moved, undoNote].filter(Boolean).join(" ") || undefined,
  };
}

/** The toast once Undo is done. */
export function undoneToast(previous: PortalUpload) {
  const undo = undoFor(previous);
  return {
    title: undo?.exact
      ? `Back to ${previous.status}: ${senderOf(previous)}`
      : `Set to pending: ${senderOf(previous)}`,
  };
}
