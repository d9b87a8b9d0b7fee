import { type KeyboardEvent, useId, useState } from "react";
import { REVIEW_NOTE_MAX } from "@/contract/portal-rules";
import type { PortalUpload } from "@/contract/portals";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { type ReviewNotes, senderOf } from "../state/review-undo";

/**
 * The two notes of a rejection, typed in the row: the internal one (members only) and the one
 * the sender sees on their status page and in the decision's mail. Enter sends from either,
 * Tab goes from one to the other, Esc goes back to the row.
 */
export function RejectNote({
  upload,
  onSubmit,
  onCancel,
}: {
  upload: PortalUpload;
  onSubmit(notes: ReviewNotes): void;
  onCancel(): void;
}) {
  const again = upload.status === "rejected";
  const [note, setNote] = useState(again ? (upload.reviewNote ?? "") : "");
  const [toSender, setToSender] = useState(again ? (upload.noteToSender ?? "") : "");
  const id = useId();
  const who = senderOf(upload);
  const cancelOnEsc = (e: KeyboardEvent) => {
    if (e.key !== "Escape") return;
    e.preventDefault();
    e.stopPropagation();
    onCancel();
  };
  return (
    <form
      className="absolute inset-x-2 top-1/2 z-10 grid -translate-y-1/2 grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-x-2 gap-y-1 rounded-md border border-border bg-card p-2 shadow-md @md:left-1/3"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit({ note: note.trim(), noteToSender: toSender.trim() });
      }}
    >
      <label htmlFor={`${id}-internal`} className="text-xs text-muted-foreground">
        Internal
      </label>
      <Input
        id={`${id}-internal`}
        autoFocus
        aria-label={`Why ${who}’s upload is rejected (internal note, optional)`}
        placeholder="Reason, for members (optional)"
        maxLength={REVIEW_NOTE_MAX}
        value={note}
        onChange={(e) => setNote(e.target.value)}
        onKeyDown={cancelOnEsc}
        className="h-8"
      />
      <label htmlFor={`${id}-sender`} className="text-xs text-muted-foreground">
        To sender
      </label>
      <Input
        id={`${id}-sender`}
        aria-label={`Note to ${who} (shown to the sender, optional)`}
        placeholder="What the sender reads (optional)"
        maxLength={REVIEW_NOTE_MAX}
        value={toSender}
        onChange={(e) => setToSender(e.target.value)}
        onKeyDown={cancelOnEsc}
        className="h-8"
      />
      {/* After both notes, so Tab goes from one to the other; placed in the right column. */}
      <Button type="submit" size="sm" variant="destructive" className="col-start-3 row-start-1">
        Reject
      </Button>
      <Button
        size="sm"
        variant="ghost"
        onClick={onCancel}
        className="col-start-3 row-start-2 max-[400px]:hidden"
      >
        Cancel
      </Button>
    </form>
  );
}
