import { queryOptions, useQuery } from "@tanstack/react-query";
import type { RenderJob } from "@/contract/media";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { jobsKeys, RECENT_LIMIT } from "./jobs-keys";

/** While a render is queued or running its progress is read this often (a transcode is slow). */
export const RENDER_POLL_MS = 2_000;

const isRendering = (job: RenderJob) => job.status === "queued" || job.status === "rendering";

/** Thumbnails' bigger siblings: proxies, waveforms, contact sheets and PDF pages, newest first. */
export const rendersQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: jobsKeys.renders(workspaceId),
    queryFn: ({ signal }) =>
      apiRequest<{ items: RenderJob[] }>(workspacePath("/files/renders"), {
        query: { limit: RECENT_LIMIT },
        signal,
      }),
    staleTime: 1_000,
    // Polled only while one renders, and not from a hidden tab (React Query's default).
    refetchInterval: (query) =>
      query.state.data?.items.some(isRendering) ? RENDER_POLL_MS : false,
  });

export function useRendersQuery(workspaceId: string) {
  return useQuery(rendersQueryOptions(workspaceId));
}
