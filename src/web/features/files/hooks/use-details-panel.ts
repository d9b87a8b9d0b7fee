import { useState } from "react";
import type { DetailsTab } from "@/web/features/files/components/details-panel";
import { useFilesViewStore } from "@/web/features/files/state/view-store";
import { useMediaQuery } from "@/web/lib/use-media-query";

/** Tailwind's `md`: from here up the panel sits beside the list; below, it is a sheet over it. */
const BESIDE_THE_LIST = "(min-width: 48rem)";

/**
 * Whether the details show, and which tab. Beside the list the choice is remembered on this
 * device; as a sheet it opens only when asked for, never by itself on the next visit.
 */
export function useDetailsPanel() {
  const beside = useMediaQuery(BESIDE_THE_LIST);
  const remembered = useFilesViewStore((s) => s.detailsOpen);
  const remember = useFilesViewStore((s) => s.setDetailsOpen);
  const [sheetOpen, setSheetOpen] = useState(false);
  const [tab, setTab] = useState<DetailsTab>("details");
  const open = beside ? remembered : sheetOpen;
  const setOpen = beside ? remember : setSheetOpen;
  return {
    beside,
    open,
    setOpen,
    tab,
    setTab,
    show: (next: DetailsTab) => {
      setTab(next);
      setOpen(true);
    },
  };
}
