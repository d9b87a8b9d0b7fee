import { queryOptions, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { FileEntry } from "@/contract/files";
import { thumbnailMimeTypes } from "@/contract/rules";
import { apiRequest } from "@/web/lib/api-client";
import { filesKeys } from "@/web/lib/query-keys/files";

/** Whether the service makes a thumbnail of this entry (only images). */
export const hasPreview = (entry: FileEntry) =>
  entry.type === "file" &&
  entry.sha256 !== null &&
  entry.mimeType !== null &&
  thumbnailMimeTypes.includes(entry.mimeType);

/** A file's thumbnail (JPEG, at most 320 px); content-addressed, so it never goes stale. */
export const previewQueryOptions = (workspaceId: string, entry: FileEntry) =>
  queryOptions({
    queryKey: filesKeys.preview(workspaceId, entry.sha256 ?? ""),
    queryFn: ({ signal }) =>
      apiRequest<Blob>(`/workspaces/${encodeURIComponent(workspaceId)}/files/preview`, {
        query: { path: entry.path },
        responseType: "blob",
        signal,
      }),
    staleTime: Number.POSITIVE_INFINITY,
  });

/**
 * The thumbnail as an object URL for an <img> (the request needs the bearer header, so the
 * image cannot be loaded by URL), revoked when the entry changes or the view goes away.
 */
export function usePreviewUrl(workspaceId: string, entry: FileEntry) {
  const query = useQuery({
    ...previewQueryOptions(workspaceId, entry),
    enabled: hasPreview(entry),
  });
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
