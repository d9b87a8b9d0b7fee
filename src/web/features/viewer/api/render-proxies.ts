import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RenderProxiesBody } from "@/contract/media";
import { apiRequest } from "@/web/lib/api-client";
import type { ViewerTarget } from "../viewer-store";
import { filesPath, viewerKeys } from "./viewer-keys";

/** Asks the service to render what the file or version lacks (row 14), then reads its status. */
export function useRenderProxiesMutation(target: ViewerTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => {
      const body: RenderProxiesBody = target.version
        ? { versions: [target.version] }
        : { paths: [target.path] };
      return apiRequest<{ queued: number }>(filesPath(target.workspaceId, "proxies"), {
        method: "POST",
        body,
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: viewerKeys.proxies(target) }),
  });
}
