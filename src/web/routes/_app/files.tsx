import { createFileRoute } from "@tanstack/react-router";
import { filesPageQueryOptions } from "@/web/features/files/api/list-files";
import { FilesPage } from "@/web/features/files/files-page";
import { parseFilesSearch } from "@/web/features/files/files-search";
import { FolderJobBanner } from "@/web/features/jobs";
import { currentWorkspaceId, useWorkspaceId } from "@/web/stores/session-store";

export const Route = createFileRoute("/_app/files")({
  validateSearch: parseFilesSearch,
  loaderDeps: ({ search }) => ({
    path: search.path ?? "",
    sort: search.sort ?? "name",
    order: search.order ?? "asc",
  }),
  // Starts the first page while the route's code loads; the page shows its own errors.
  loader: ({ context, deps }) => {
    const workspaceId = currentWorkspaceId();
    void context.queryClient.prefetchQuery(filesPageQueryOptions(workspaceId, deps, 0));
  },
  component: function Files() {
    const view = Route.useLoaderDeps();
    const workspaceId = useWorkspaceId();
    return (
      <>
        <FolderJobBanner workspaceId={workspaceId} folder={view.path} />
        <FilesPage workspaceId={workspaceId} view={view} />
      </>
    );
  },
});
