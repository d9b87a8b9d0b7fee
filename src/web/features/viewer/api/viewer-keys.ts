import { filesKeys } from "@/web/lib/query-keys/files";
import type { ViewerTarget } from "../viewer-store";

/** Under the files' keys, so whatever changes a file (a new version, a move) reads them again. */
export const viewerKeys = {
  proxies: (t: ViewerTarget) =>
    [...filesKeys.all(t.workspaceId), "proxies", t.version ?? t.path] as const,
  original: (t: ViewerTarget) => [...filesKeys.all(t.workspaceId), "original", t.path] as const,
};

export const filesPath = (workspaceId: string, rest: string) =>
  `/workspaces/${encodeURIComponent(workspaceId)}/files/${rest}`;
