import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { locateEntry } from "@/web/features/files/state/locate-entry";
import type { EntryRef } from "@/web/features/files/state/name-order";
import { type Selection, selectOnly } from "@/web/features/files/state/selection";
import type { FolderView } from "@/web/lib/query-keys/files";

/** Finds `reveal` in the folder (reading few pages), makes it the selected, active entry in view. */
export function useRevealEntry(o: {
  reveal: EntryRef | null;
  workspaceId: string;
  view: FolderView;
  total: number;
  show(index: number): void;
  select(next: Selection, anchor?: number): void;
  onRevealed(): void;
}) {
  const queryClient = useQueryClient();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per entry to reveal
  useEffect(() => {
    const { reveal } = o;
    if (!reveal) return;
    let cancelled = false;
    void locateEntry(queryClient, o.workspaceId, o.view, o.total, reveal).then((index) => {
      if (cancelled) return;
      if (index !== null) o.show(index);
      o.select(selectOnly(reveal.path), index ?? 0);
      o.onRevealed();
    });
    return () => {
      cancelled = true;
    };
  }, [o.reveal]);
}
