import { queryOptions, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { thumbnailMimeTypes } from "@/contract/rules";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { portalsKeys } from "./portals-keys";

/** Whether the service makes a thumbnail of an uploaded file (images only). */
export const hasPreview = (file: { mime: string | null }) =>
  file.mime !== null && thumbnailMimeTypes.includes(file.mime);

/**
 * An uploaded file's thumbnail (JPEG). Keyed by path: an upload's files are not rewritten in
 * place (approval moves the folder, and the record then names the new paths).
 */
export const uploadPreviewQueryOptions = (workspaceId: string, path: string) =>
  queryOptions({
    queryKey: portalsKeys.preview(workspaceId, path),
    queryFn: ({ signal }) =>
      apiRequest<Blob>(workspacePath("/files/preview"), {
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
 * cannot be loaded by URL), revoked when the path changes or the row goes away.
 */
export function useUploadPreviewUrl(workspaceId: string, path: string) {
  const query = useQuery(uploadPreviewQueryOptions(workspaceId, path));
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
