import { useNavigate } from "@tanstack/react-router";
import { useEffect } from "react";
import type { FileListing } from "@/contract/files";
import type { FolderView } from "@/web/lib/query-keys/files";
import { toast } from "@/web/stores/toast-store";

/**
 * A service without the sort extension answers in name order, ascending, and leaves out `sort`
 * and `order`; showing that as any other order would also misdirect locateEntry. True while the
 * URL still asks for the order the service ignored (it is put back to name order at once).
 */
export function useSortFallback(view: FolderView, listing: FileListing | undefined): boolean {
  const navigate = useNavigate({ from: "/files" });
  const ignored =
    listing !== undefined &&
    (view.sort !== "name" || view.order !== "asc") &&
    (listing.sort !== view.sort || listing.order !== view.order);
  useEffect(() => {
    if (!ignored) return;
    toast({
      title: "Showing name order",
      description: "This service sorts by name, ascending, only.",
    });
    void navigate({ search: (s) => ({ ...s, sort: undefined, order: undefined }), replace: true });
  }, [ignored, navigate]);
  return ignored;
}
