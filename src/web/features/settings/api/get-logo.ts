import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { apiRequest } from "@/web/lib/api-client";
import { settingsKeys, settingsPath } from "./settings-keys";

/**
 * The logo as an object URL for an <img>: fetched with the key in a header (an <img src> would
 * need the key in the URL), revoked when it is no longer shown.
 */
export function useLogoUrl(workspaceId: string, updatedAt: string | null) {
  const query = useQuery({
    queryKey: settingsKeys.logo(workspaceId, updatedAt ?? ""),
    queryFn: ({ signal }) =>
      apiRequest<Blob>(settingsPath("/logo"), { signal, responseType: "blob" }),
    enabled: updatedAt !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const url = useMemo(() => (query.data ? URL.createObjectURL(query.data) : null), [query.data]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return { ...query, url };
}
