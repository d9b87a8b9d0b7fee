import { useState } from "react";
import { formatCount } from "@/browser/format";
import { REVIEW_BULK_MAX, REVIEW_NOTE_MAX, type ReviewDecision } from "@/contract/portal-rules";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { describeError } from "@/web/lib/api-client";
import { toast } from "@/web/stores/toast-store";
import { useReviewUploadsMutation } from "../api/review-uploads";

const done: Record<ReviewDecision, string> = {
  approved: "Approved",
  rejected: "Rejected",
  pending: "Set to pending",
};

const uploadsText = (n: number) => `${formatCount(n)} ${n === 1 ? "upload" : "uploads"}`;

/**
 * What to do with the selected uploads: approve or reject them all in one request, with one
 * optional note. A toolbar of plain buttons, so Tab reaches it from the rows.
 */
export function BulkReviewBar({ ids, onClear }: { ids: string[]; onClear(): void }) {
  const [note, setNote] = useState("");
  const review = useReviewUploadsMutation();
  const decide = (decision: ReviewDecision) =>
    review.mutate(
      { uploadIds: ids, decision, note: note.trim() },
      {
        onSuccess: ({ decided, refused }) => {
          toast({
            title: `${done[decision]} ${uploadsText(decided.length)}`,
            description:
              refused.length > 0
                ? `${uploadsText(refused.length)} could not be: ${refused[0]!.message}`
                : undefined,
            tone: refused.length > 0 ? "error" : "default",
          });
          setNote("");
          onClear();
        },
        onError: (error) =>
          toast({ title: "Nothing was decided", description: describeError(error), tone: "error" }),
      },
    );
  return (
    <div
      role="toolbar"
      aria-label="The selected uploads"
      className="flex flex-wrap items-center gap-2 border-b border-border bg-muted/50 px-4 py-2 text-sm"
    >
      <p className="font-medium" aria-live="polite">
        {uploadsText(ids.length)} selected
        {ids.length >= REVIEW_BULK_MAX && (
          <span className="font-normal text-muted-foreground"> (at most {REVIEW_BULK_MAX})</span>
        )}
      </p>
      <Input
        aria-label="Note for the selected uploads (optional)"
        placeholder="Note (optional)"
        maxLength={REVIEW_NOTE_MAX}
        value={note}
        onChange={(e) => setNote(e.target.value)}
        className="h-8 min-w-0 flex-[1_1_10rem]"
      />
      <Button size="sm" disabled={review.isPending} onClick={() => decide("approved")}>
        Approve {formatCount(ids.length)}
      </Button>
      <Button
        size="sm"
        variant="destructive"
        disabled={review.isPending}
        onClick={() => decide("rejected")}
      >
        Reject {formatCount(ids.length)}
      </Button>
      <Button size="sm" variant="ghost" onClick={onClear}>
        Clear
      </Button>
    </div>
  );
}
