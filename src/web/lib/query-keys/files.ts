import type { QueryClient } from "@tanstack/react-query";
import type { FileSortField, SortOrder } from "@/contract/rules";

/** One folder as the person is looking at it. */
export interface FolderView {
  path: string;
  sort: FileSortField;
  order: SortOrder;
}

/** Keys derive from the request, so invalidating a folder reaches every sort and page of it. */
export const filesKeys = {
  all: (workspaceId: string) => ["files", workspaceId] as const,
  folder: (workspaceId: string, path: string) =>
    [...filesKeys.all(workspaceId), "list", path] as const,
  list: (workspaceId: string, view: FolderView) =>
    [...filesKeys.folder(workspaceId, view.path), { sort: view.sort, order: view.order }] as const,
  page: (workspaceId: string, view: FolderView, page: number) =>
    [...filesKeys.list(workspaceId, view), page] as const,
  searches: (workspaceId: string) => [...filesKeys.all(workspaceId), "search"] as const,
  search: (workspaceId: string, path: string, q: string) =>
    [...filesKeys.searches(workspaceId), { path, q }] as const,
  versions: (workspaceId: string, path: string) =>
    [...filesKeys.all(workspaceId), "versions", path] as const,
  /**
   * A file's thumbnail, by path and the content's hash when known: Files and the portal review
   * queue show the same image under this one key. Under `all`, so what changes files (a new
   * version, a move) refetches it.
   */
  preview: (workspaceId: string, path: string, sha256?: string | null) =>
    [...filesKeys.all(workspaceId), "preview", path, sha256 ?? null] as const,
};

/** Reads these folders (every sort and page) and every search again: their entries changed. */
export const invalidateFolders = (
  queryClient: QueryClient,
  workspaceId: string,
  folders: Iterable<string>,
) =>
  Promise.all([
    ...[...new Set(folders)].map((folder) =>
      queryClient.invalidateQueries({ queryKey: filesKeys.folder(workspaceId, folder) }),
    ),
    queryClient.invalidateQueries({ queryKey: filesKeys.searches(workspaceId) }),
  ]);
