import { useQueryClient } from "@tanstack/react-query";
import { formatCount } from "@/browser/format";
import type { FileEntry } from "@/contract/files";
import {
  OPERATION_ITEMS_MAX,
  RENAME_PATHS_MAX,
  SHARE_PATHS_MAX,
  TRANSFER_PATHS_MAX,
} from "@/contract/rules";
import type { DetailsTab } from "@/web/features/files/components/details-panel";
import type { OpenDialog } from "@/web/features/files/components/files-overlays";
import { canSaveIntoFolder, download, saveIntoFolder } from "@/web/features/transfers";
import type { FolderView } from "@/web/lib/query-keys/files";
import { toast } from "@/web/stores/toast-store";
import { useFileActions } from "./use-file-actions";

/**
 * The Files page's actions on the selection: those that need its paths take them up to what one
 * request takes, then open their dialog or start their download.
 */
export function usePageActions(o: {
  workspaceId: string;
  view: FolderView;
  total: number;
  canWrite: boolean;
  /** The one selected entry, when exactly one is selected. */
  single: FileEntry | null;
  /** How many are selected. */
  count: number;
  onOpen(entry: FileEntry): void;
  onRename(entry: FileEntry): void;
  onShowDetails(tab: DetailsTab): void;
  setDialog(dialog: OpenDialog): void;
}) {
  const { workspaceId, single, setDialog } = o;
  const queryClient = useQueryClient();
  /** The selected paths, unless there are more than a request takes (then it says so). */
  const selectedUpTo = async (max: number, verb: string) => {
    const paths = await fileActions.selectedPaths();
    if (paths.length <= max) return paths;
    toast({ title: `${verb} up to ${formatCount(max)} items at a time`, tone: "error" });
    return [];
  };
  const fileActions = useFileActions({
    ...o,
    onAskDeletePermanently: (target) => setDialog({ kind: "delete", target }),
    onMoveCopy: async (op) => {
      const paths = await selectedUpTo(OPERATION_ITEMS_MAX, op === "move" ? "Move" : "Copy");
      if (paths.length > 0) setDialog({ kind: "move-copy", op, paths });
    },
    onDownload: async () => {
      if (single?.type === "file")
        return download(queryClient, {
          kind: "file",
          path: single.path,
          size: single.sizeBytes ?? 0,
        });
      if (single) return download(queryClient, { kind: "folder", folder: single.path });
      const paths = await selectedUpTo(TRANSFER_PATHS_MAX, "Download");
      if (paths.length > 0) await download(queryClient, { kind: "selection", paths });
    },
    onShare: async () => {
      const paths = await selectedUpTo(SHARE_PATHS_MAX, "Share");
      if (paths.length > 0) setDialog({ kind: "share", paths });
    },
    onSaveInto:
      single?.type === "folder" && canSaveIntoFolder()
        ? () =>
            void saveIntoFolder(queryClient, {
              folder: single.path,
              // The manifest's code loads with the first save, as with the manifest dialog.
              list: async () =>
                queryClient.fetchQuery(
                  (await import("../api/get-manifest")).manifestQueryOptions(
                    workspaceId,
                    single.path,
                  ),
                ),
            })
        : undefined,
    onRenameMany:
      o.count > 1
        ? async () => {
            const paths = await selectedUpTo(RENAME_PATHS_MAX, "Rename");
            if (paths.length > 0) setDialog({ kind: "rename-many", paths });
          }
        : undefined,
  });
  return { ...fileActions, selectedUpTo };
}
