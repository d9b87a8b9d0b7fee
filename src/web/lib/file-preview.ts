import { queryOptions, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { thumbnailMimeTypes } from "@/contract/rules";
import { apiRequest } from "@/web/lib/api-client";
import { filesKeys } from "@/web/lib/query-keys/files";

/** Whether the service makes a thumbnail of a file of this type (only images). */
export const isPreviewable = (mime: string | null) =>
  mime !== null && thumbnailMimeTypes.includes(mime);

/** A stored file's thumbnail (JPEG, at most 320 px), whichever page shows it. */
export const previewQueryOptions = (workspaceId: string, path: string) =>
  queryOptions({
    queryKey: filesKeys.preview(workspaceId, path),
    queryFn: ({ signal }) =>
      apiRequest<Blob>(`/workspaces/${encodeURIComponent(workspaceId)}/files/preview`, {
        query: { path },
        responseType: "blob",
        signal,
      }),
    staleTime: Number.POSITIVE_INFINITY,
    // A queue scrolled past hundreds of rows must not keep every image it showed.
    gcTime: 60_000,
  });

/**
 * The thumbnail as an object URL for an <img> (the request needs the bearer header, so the image
 * cannot be loaded by URL), revoked when the path changes or the view goes away.
 */
export function usePreviewUrl(workspaceId: string, path: string, enabled = true) {
  const query = useQuery({ ...previewQueryOptions(workspaceId, path), enabled });
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!query.data) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(query.data);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [query.data]);
  return { url, isError: query.isError };
}
