import { useQuery } from "@tanstack/react-query";
import { useContext } from "react";
import { viewerKeys } from "../api/viewer-keys";
import { isBrowserPlayable, typeOf } from "../state/media-types";
import { StreamLinkContext } from "../stream-link";
import type { ViewerTarget } from "../viewer-store";

/**
 * The original's bytes as a link the browser plays with Range, for a live file the browser can
 * play (a kept version has no such link: it waits for its proxy). One link per file while it
 * holds, so reopening the viewer makes no new transfer. `pending` while the link is on its way.
 */
export function useOriginalUrl(target: ViewerTarget, enabled: boolean) {
  const streamLink = useContext(StreamLinkContext);
  const playable =
    !!streamLink &&
    enabled &&
    !target.version &&
    target.sizeBytes != null &&
    isBrowserPlayable(typeOf(target));
  const query = useQuery({
    queryKey: viewerKeys.original(target),
    queryFn: () => streamLink!({ path: target.path, size: target.sizeBytes ?? 0 }),
    enabled: playable,
    staleTime: 10 * 60_000,
    retry: false,
  });
  return {
    url: playable ? (query.data?.url ?? null) : null,
    pending: playable && query.isPending,
  };
}
