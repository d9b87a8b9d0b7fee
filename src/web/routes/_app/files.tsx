import { createFileRoute } from "@tanstack/react-router";
import { filesPageQueryOptions } from "../../features/files/api/list-files";
import { FilesPage } from "../../features/files/files-page";
import { parseFilesSearch } from "../../features/files/files-search";
import { useSessionStore } from "../../stores/session-store";

export const Route = createFileRoute("/_app/files")({
  validateSearch: parseFilesSearch,
  loaderDeps: ({ search }) => ({
    path: search.path ?? "",
    sort: search.sort ?? "name",
    order: search.order ?? "asc",
  }),
  // Starts the first page while the route's code loads; the page shows its own errors.
  loader: ({ context, deps }) => {
    const workspaceId = useSessionStore.getState().session?.workspaceId ?? "";
    void context.queryClient.prefetchQuery(filesPageQueryOptions(workspaceId, deps, 0));
  },
  component: function Files() {
    const view = Route.useLoaderDeps();
    const workspaceId = useSessionStore((s) => s.session?.workspaceId ?? "");
    return <FilesPage workspaceId={workspaceId} view={view} />;
  },
});
