import { useNavigate } from "@tanstack/react-router";
import { useCallback } from "react";
import { toast } from "@/web/stores/toast-store";
import { jobStarted } from "./follow-job";
import { type Job, startedTitle } from "./job-model";

/** A toast for a job just started, linking to it in the job centre ("Moving 3 items… View job"). */
export function useAnnounceJob() {
  const navigate = useNavigate();
  return useCallback(
    (job: Job, count: number, onlyPath?: string) => {
      jobStarted(job);
      toast({
        title: startedTitle(job, count, onlyPath),
        action: {
          label: "View job",
          onClick: () => void navigate({ to: "/jobs", search: { job: job.id } }),
        },
      });
    },
    [navigate],
  );
}
