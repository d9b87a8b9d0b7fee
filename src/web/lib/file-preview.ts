import { queryOptions, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { thumbnailKindOf } from "@/contract/media-rules";
import { apiRequest } from "@/web/lib/api-client";
import { filesKeys } from "@/web/lib/query-keys/files";

/** Whether the service makes a thumbnail of a file of this type (images, video, PDF, audio). */
export const isPreviewable = (mime: string | null) => thumbnailKindOf(mime) !== null;

/**
 * A stored file's thumbnail (JPEG, at most 320 px), whichever page shows it. With the content's
 * SHA-256 (the listing has it) the address names the content (`v`): the service lets the browser
 * keep it for a year, so a folder seen again asks the service for none of its thumbnails.
 */
export const previewQueryOptions = (workspaceId: string, path: string, sha256?: string | null) =>
  queryOptions({
    queryKey: filesKeys.preview(workspaceId, path, sha256),
    queryFn: ({ signal }) =>
      apiRequest<Blob>(`/workspaces/${encodeURIComponent(workspaceId)}/files/preview`, {
        query: { path, v: sha256?.slice(0, 16) },
        responseType: "blob",
        signal,
      }),
    staleTime: Number.POSITIVE_INFINITY,
    // A queue scrolled past hundreds of rows must not keep every image it showed.
    gcTime: 60_000,
  });

/**
 * The thumbnail as an object URL for an <img> (the request needs the bearer header, so the image
 * cannot be loaded by URL), revoked when the path changes or the view goes away. A request still
 * under way when the last view of it goes (a tile scrolled past) is cancelled.
 */
export function usePreviewUrl(
  workspaceId: string,
  path: string,
  enabled = true,
  sha256?: string | null,
) {
  const query = useQuery({ ...previewQueryOptions(workspaceId, path, sha256), enabled });
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
