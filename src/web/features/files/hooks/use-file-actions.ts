import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import {
  CopyIcon,
  CopyPlusIcon,
  DownloadIcon,
  FolderInputIcon,
  FolderOpenIcon,
  HistoryIcon,
  InfoIcon,
  PencilIcon,
  PencilLineIcon,
  Share2Icon,
  Trash2Icon,
  XCircleIcon,
} from "lucide-react";
import type { FileEntry } from "@/contract/files";
import { baseName } from "@/contract/rules";
import { FILES_PAGE_SIZE, readFilesPages } from "@/web/features/files/api/list-files";
import type { DetailsTab } from "@/web/features/files/components/details-panel";
import type { FileAction } from "@/web/features/files/components/file-actions";
import { emptySelection, pickSelected, selectedCount } from "@/web/features/files/state/selection";
import { selectionScope, useSelectionStore } from "@/web/features/files/state/selection-store";
import { copyText } from "@/web/lib/clipboard";
import type { FolderView } from "@/web/lib/query-keys/files";
import { type DeleteTarget, useDeletePermanently } from "./use-delete-permanently";
import { useTrashWithUndo } from "./use-trash-with-undo";

/** The selected paths; "all except" reads the folder's pages (only when an action needs it). */
async function selectedPaths(
  queryClient: QueryClient,
  workspaceId: string,
  view: FolderView,
  total: number,
): Promise<string[]> {
  const s = useSelectionStore.getState();
  const selection = s.scope === selectionScope(view) ? s.selection : emptySelection;
  if (selection.mode === "some") return [...selection.ids];
  const lastPage = Math.ceil(total / FILES_PAGE_SIZE) - 1;
  const pages = await readFilesPages(queryClient, workspaceId, view, 0, lastPage);
  return pickSelected(
    selection,
    pages.flatMap((page) => page.items.map((entry) => entry.path)),
  );
}

/**
 * What can be done with the selection, for the context menu and the selection bar, and the
 * two actions keys reach directly (Delete, Shift+Delete).
 */
export function useFileActions(o: {
  workspaceId: string;
  view: FolderView;
  total: number;
  canWrite: boolean;
  /** The one selected entry, when exactly one is selected. */
  single: FileEntry | null;
  onOpen(entry: FileEntry): void;
  onRename(entry: FileEntry): void;
  onShowDetails(tab: DetailsTab): void;
  onAskDeletePermanently(target: DeleteTarget): void;
  /** "Move to…" and "Copy to…" (with write access). */
  onMoveCopy?(kind: "move" | "copy"): void;
  /** "Rename…" by pattern, offered when it is given (several items selected). */
  onRenameMany?(): void;
  /** "Download": a file as it is, a folder or several items as one ZIP. */
  onDownload(): void;
  /** "Save into a folder…" (a folder, where the browser can write into a chosen folder). */
  onSaveInto?(): void;
  /** "Share…": a share link for the selection. */
  onShare(): void;
}) {
  const queryClient = useQueryClient();
  const trash = useTrashWithUndo(selectionScope(o.view), o.view.path);
  const paths = () => selectedPaths(queryClient, o.workspaceId, o.view, o.total);
  // Never reads the folder's pages: "all except" goes to the service as it is.
  const current = () => {
    const s = useSelectionStore.getState();
    return s.scope === selectionScope(o.view) ? s.selection : emptySelection;
  };
  const trashSelected = async () => {
    const selection = current();
    trash(selection, selectedCount(selection, o.total));
  };
  const deletePermanently = useDeletePermanently(selectionScope(o.view), o.view.path);
  // The dialog acts on the selection it asked about, even if the selection changes meanwhile.
  const askDeletePermanently = async () => {
    const selection = current();
    const count = selectedCount(selection, o.total);
    if (count === 0) return;
    const only = selection.mode === "some" && count === 1 ? [...selection.ids][0] : undefined;
    o.onAskDeletePermanently({
      count,
      name: only ? baseName(only) : null,
      run: () => deletePermanently(selection, count),
    });
  };

  const { single, canWrite } = o;
  const actions: FileAction[] = [];
  if (single) {
    actions.push({
      id: "open",
      label: "Open",
      icon: FolderOpenIcon,
      keys: "open",
      run: () => o.onOpen(single),
    });
    if (canWrite)
      actions.push({
        id: "rename",
        label: "Rename",
        icon: PencilIcon,
        keys: "rename",
        run: () => o.onRename(single),
      });
  }
  actions.push({
    id: "details",
    label: "Details",
    icon: InfoIcon,
    run: () => o.onShowDetails("details"),
  });
  if (single?.type === "file")
    actions.push({
      id: "versions",
      label: "Version history",
      icon: HistoryIcon,
      run: () => o.onShowDetails("versions"),
    });
  actions.push({ id: "download", label: "Download", icon: DownloadIcon, run: o.onDownload });
  if (o.onSaveInto)
    actions.push({
      id: "save-into",
      label: "Save into a folder…",
      icon: DownloadIcon,
      run: o.onSaveInto,
    });
  actions.push({ id: "share", label: "Share…", icon: Share2Icon, run: o.onShare });
  if (single)
    actions.push({
      id: "copy",
      label: "Copy path",
      icon: CopyIcon,
      run: () => void copyText(single.path, "Copied the path"),
    });
  const { onMoveCopy, onRenameMany } = o;
  if (canWrite && onMoveCopy)
    actions.push(
      {
        id: "move-to",
        label: "Move to…",
        icon: FolderInputIcon,
        group: true,
        run: () => onMoveCopy("move"),
      },
      { id: "copy-to", label: "Copy to…", icon: CopyPlusIcon, run: () => onMoveCopy("copy") },
    );
  if (canWrite && onRenameMany)
    actions.push({ id: "rename-many", label: "Rename…", icon: PencilLineIcon, run: onRenameMany });
  if (canWrite)
    actions.push(
      {
        id: "trash",
        label: "Move to trash",
        icon: Trash2Icon,
        keys: "trash",
        group: true,
        run: () => void trashSelected(),
      },
      {
        id: "delete",
        label: "Delete permanently…",
        icon: XCircleIcon,
        keys: "deletePermanently",
        destructive: true,
        run: () => void askDeletePermanently(),
      },
    );
  return { actions, trashSelected, askDeletePermanently, selectedPaths: paths };
}
