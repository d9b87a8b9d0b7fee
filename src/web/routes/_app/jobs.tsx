import { createFileRoute } from "@tanstack/react-router";
import { JobsPage } from "@/web/features/jobs/jobs-page";
import { parseJobsSearch } from "@/web/features/jobs/jobs-search";
import { useWorkspaceId } from "@/web/stores/session-store";

export const Route = createFileRoute("/_app/jobs")({
  validateSearch: parseJobsSearch,
  component: function Jobs() {
    const search = Route.useSearch();
    const workspaceId = useWorkspaceId();
    return <JobsPage workspaceId={workspaceId} search={search} />;
  },
});
