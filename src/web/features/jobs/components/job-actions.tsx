import { BanIcon, Undo2Icon } from "lucide-react";
import { Button } from "@/web/components/ui/button";
import { useCancelBulkJobMutation } from "@/web/features/jobs/api/cancel-bulk-job";
import { useCancelOperationMutation } from "@/web/features/jobs/api/cancel-operation";
import { useUndoBulkJobMutation } from "@/web/features/jobs/api/undo-bulk-job";
import { isActive, isBulk, type Job, kindLabel } from "@/web/features/jobs/job-model";
import { useAnnounceJob } from "@/web/features/jobs/use-announce-job";
import { describeError } from "@/web/lib/api-client";
import { toast } from "@/web/stores/toast-store";

/** Cancel while a job is queued or running; Undo once for a completed trash job. */
export function JobActions({ job, className }: { job: Job; className?: string }) {
  const cancelBulk = useCancelBulkJobMutation();
  const cancelOperation = useCancelOperationMutation();
  const undo = useUndoBulkJobMutation();
  const announce = useAnnounceJob();
  const label = kindLabel(job);
  const failed = (what: string) => (error: unknown) =>
    toast({ title: `Could not ${what}`, description: describeError(error), tone: "error" });

  if (isActive(job)) {
    const cancel = isBulk(job) ? cancelBulk : cancelOperation;
    return (
      <Button
        size="sm"
        variant="outline"
        className={className}
        disabled={cancel.isPending}
        aria-label={`Cancel ${label}`}
        onClick={() => cancel.mutate(job.id, { onError: failed("cancel the job") })}
      >
        <BanIcon aria-hidden="true" />
        Cancel
      </Button>
    );
  }
  if (isBulk(job) && job.undoable) {
    return (
      <Button
        size="sm"
        variant="outline"
        className={className}
        disabled={undo.isPending}
        aria-label={`Undo ${label}`}
        onClick={() =>
          undo.mutate(job.id, {
            onSuccess: (restore) => announce(restore, restore.total ?? job.done),
            onError: failed("undo the job"),
          })
        }
      >
        <Undo2Icon aria-hidden="true" />
        Undo
      </Button>
    );
  }
  return null;
}
