import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Receipt } from "@/contract/receipts";
import { apiRequest, apiRequestValidated, type Validated } from "@/web/lib/api-client";
import { sharePath, sharesKeys } from "./shares-keys";

/** One receipt poll every 2 s: a download shows within the 3 s, at half a request a second. */
const RECEIPT_POLL_MS = 2_000;

/**
 * Live while open: each poll sends the ETag of the receipt held, and an unchanged receipt is a
 * body-less 304 that keeps it (React Query stops polling while the tab is hidden).
 */
export const receiptQueryOptions = (workspaceId: string, id: string) =>
  queryOptions({
    queryKey: sharesKeys.receipt(workspaceId, id),
    queryFn: ({ signal, client, queryKey }) =>
      apiRequestValidated<Receipt>(
        sharePath(id, "/receipt"),
        client.getQueryData<Validated<Receipt>>(queryKey),
        { signal },
      ),
    staleTime: 1_000,
    refetchInterval: RECEIPT_POLL_MS,
    select: (answer) => answer.data,
  });

export function useReceiptQuery(workspaceId: string, id: string, enabled = true) {
  return useQuery({ ...receiptQueryOptions(workspaceId, id), enabled });
}

/** receipt.pdf is for the client; audit.pdf (addresses, security events) stays with the sender. */
export type ReceiptFile = "receipt.pdf" | "audit.pdf" | "receipt.csv" | "delivery-note.pdf";

/**
 * A receipt's file, fetched with the API key (never put in a URL) and saved from a Blob, so the
 * key stays in the request's header.
 */
export async function saveReceiptFile(id: string, file: ReceiptFile) {
  const blob = await apiRequest<Blob>(sharePath(id, `/${file}`), { responseType: "blob" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = `${file.replace(/\.\w+$/, "")}-${id}${file.slice(file.lastIndexOf("."))}`;
  a.click();
  // The click starts the save synchronously; a moment later the object URL can go.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
