import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ProxyStatus } from "@/contract/media";
import { apiRequest } from "@/web/lib/api-client";
import type { ViewerTarget } from "../viewer-store";
import { filesPath, viewerKeys } from "./viewer-keys";

/** Polled while a rendition is on its way: one request every 2 s, paused in a hidden tab. */
export const PROXY_POLL_MS = 2_000;

const rendering = (s: ProxyStatus) =>
  s.proxies.some((p) => p.status === "queued" || p.status === "rendering");

/** A file's (or kept version's) proxies: what is ready, what renders and how far (row 13). */
export const proxyStatusQueryOptions = (target: ViewerTarget) =>
  queryOptions({
    queryKey: viewerKeys.proxies(target),
    queryFn: ({ signal }) =>
      apiRequest<ProxyStatus>(filesPath(target.workspaceId, "proxies"), {
        query: target.version ? { version: target.version } : { path: target.path },
        signal,
      }),
    // React Query pauses the interval while the tab is hidden (refetchIntervalInBackground).
    refetchInterval: (query) =>
      query.state.data && rendering(query.state.data) ? PROXY_POLL_MS : false,
  });

export const useProxyStatusQuery = (target: ViewerTarget) =>
  useQuery(proxyStatusQueryOptions(target));
