import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Suspense, useRef, useState } from "react";
import type { FileEntry } from "@/contract/files";
import type { CreateOperationBody } from "@/contract/operations";
import {
  OPERATION_ITEMS_MAX,
  parentOf,
  RENAME_PATHS_MAX,
  SHARE_PATHS_MAX,
  TRANSFER_PATHS_MAX,
} from "@/contract/rules";
import { lazyWithRetry } from "@/web/components/lazy-with-retry";
import {
  canSaveIntoFolder,
  download,
  pickedFromDrop,
  saveIntoFolder,
  uploadPicked,
} from "@/web/features/transfers";
import { describeError } from "@/web/lib/api-client";
import { formatCount } from "@/web/lib/format";
import { useKeymap } from "@/web/lib/keymap/use-keymap";
import type { FolderView } from "@/web/lib/query-keys/files";
import { toast } from "@/web/stores/toast-store";
import { filesPageQueryOptions } from "./api/list-files";
import type { FileListActions } from "./components/file-list";
import { FilesOverlays, type OpenDialog } from "./components/files-overlays";
import { FilesToolbar } from "./components/files-toolbar";
import { FolderContents } from "./components/folder-contents";
import { SelectionBar } from "./components/selection-bar";
import { useDetailsPanel } from "./hooks/use-details-panel";
import type { DropFiles, DropOnto } from "./hooks/use-drag-move";
import { useFileActions } from "./hooks/use-file-actions";
import { useFolderNavigation } from "./hooks/use-folder-navigation";
import { useSortFallback } from "./hooks/use-sort-fallback";
import { useStartOperation } from "./hooks/use-start-operation";
import { filesKeymap } from "./keymap";
import { emptySelection, isSelected, selectedCount } from "./state/selection";
import { selectionScope, useSelection, useSelectionStore } from "./state/selection-store";
import { useFilesViewStore } from "./state/view-store";

const DetailsPanel = lazyWithRetry(() => import("./components/details-panel"));

/** A folder: its toolbar, its list, the details of the focused entry, and what acts on them. */
export function FilesPage({ workspaceId, view }: { workspaceId: string; view: FolderView }) {
  const queryClient = useQueryClient();
  const first = useQuery(filesPageQueryOptions(workspaceId, view, 0));
  const layout = useFilesViewStore((s) => s.layout);
  const gridRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const scope = selectionScope(view);
  const selection = useSelection(scope);
  const setSelection = useSelectionStore((s) => s.set);
  const [activeEntry, setActiveEntry] = useState<FileEntry | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [menu, setMenu] = useState<{ x: number; y: number; key: number } | null>(null);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const details = useDetailsPanel();
  const sortIgnored = useSortFallback(view, first.data);
  const nav = useFolderNavigation(view, gridRef, !sortIgnored && (!!first.data || first.isError));

  const total = first.data?.total ?? 0;
  const count = selectedCount(selection, total);
  const canWrite = first.data?.access === "write";
  const single =
    count === 1 && activeEntry && isSelected(selection, activeEntry.path) ? activeEntry : null;
  const clearSelection = () => setSelection(scope, emptySelection);
  const onOpen = (entry: FileEntry) =>
    entry.type === "folder" ? nav.openFolder(entry.path) : details.show("details");
  const closeDialog = () => {
    setDialog(null);
    nav.refocusGrid();
  };
  const startOperation = useStartOperation((body, conflicts) =>
    setDialog({ kind: "conflicts", body, conflicts }),
  );
  /** The selected paths, unless there are more than a request takes (then it says so). */
  const selectedUpTo = async (max: number, verb: string) => {
    const paths = await selectedPaths();
    if (paths.length <= max) return paths;
    toast({ title: `${verb} up to ${formatCount(max)} items at a time`, tone: "error" });
    return [];
  };
  const { actions, trashSelected, askDeletePermanently, selectedPaths } = useFileActions({
    workspaceId,
    view,
    total,
    canWrite,
    single,
    onOpen,
    onRename: (entry) => setRenaming(entry.path),
    onShowDetails: details.show,
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
                  (await import("./api/get-manifest")).manifestQueryOptions(
                    workspaceId,
                    single.path,
                  ),
                ),
            })
        : undefined,
    onRenameMany:
      count > 1
        ? async () => {
            const paths = await selectedUpTo(RENAME_PATHS_MAX, "Rename");
            if (paths.length > 0) setDialog({ kind: "rename-many", paths });
          }
        : undefined,
  });
  const onStartOperation = async (body: CreateOperationBody) => {
    const started = (await startOperation(body)) === "started";
    if (!started) return;
    // Moved items leave this folder; their selection would outlive them.
    if (body.kind === "move") clearSelection();
    if (dialog) closeDialog();
  };
  const onDropOnto: DropOnto = async (items, destination, copy) => {
    const verb = copy ? "Copy" : "Move";
    const paths =
      items === "selection" ? await selectedUpTo(OPERATION_ITEMS_MAX, verb) : [...items];
    if (paths.length === 0) return;
    await onStartOperation({ kind: copy ? "copy" : "move", paths, destination }).catch((error) =>
      toast({
        title: `Could not ${verb.toLowerCase()} there`,
        description: describeError(error),
        tone: "error",
      }),
    );
  };

  // The drop's items are read now, during the event; the upload starts once folders are walked.
  const onDropFiles: DropFiles = (destination, dataTransfer) =>
    void pickedFromDrop(dataTransfer).then((picked) =>
      uploadPicked({ queryClient, workspaceId, folder: destination, picked }),
    );

  // The keys no focused list took (`/`, `?`), and the way up from a folder with no list.
  useKeymap(
    filesKeymap,
    {
      search: () => searchRef.current?.focus(),
      showShortcuts: () => setDialog({ kind: "shortcuts" }),
      // The list takes this key itself; an empty or failed folder has no list to take it.
      parent: () => !gridRef.current && !!view.path && nav.openFolder(parentOf(view.path), true),
    },
    { holds: (scope) => scope === layout },
  );

  const listActions: FileListActions = {
    onOpen,
    onParent: () => view.path && nav.openFolder(parentOf(view.path)),
    onSort: nav.sortBy,
    onActiveEntry: setActiveEntry,
    onRename: (entry) => setRenaming(entry.path),
    onRenameDone: (renamed) => {
      setRenaming(null);
      if (renamed) nav.setReveal(renamed);
      else nav.focusGrid();
    },
    onTrash: () => void trashSelected(),
    onDeletePermanently: () => void askDeletePermanently(),
    onContextMenu: ({ x, y }) => setMenu({ x, y, key: Date.now() }),
    onRevealed: nav.revealed,
    onDropOnto,
    onDropFiles,
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <FilesToolbar
        workspaceId={workspaceId}
        folder={view.path}
        listing={first.data}
        searchRef={searchRef}
        onOpenResult={nav.openResult}
        detailsOpen={details.open}
        onToggleDetails={() => details.setOpen(!details.open)}
        onShowManifest={() => setDialog({ kind: "manifest" })}
        onShowShortcuts={() => setDialog({ kind: "shortcuts" })}
        onDropOnto={canWrite ? onDropOnto : undefined}
      />
      <div className="flex min-h-0 flex-1">
        {/* The selection bar floats over the list, centred on it, not on the details. */}
        <div className="relative flex min-w-0 flex-1">
          <FolderContents
            key={scope}
            first={first}
            waiting={sortIgnored}
            onOpenFolder={nav.openFolder}
            workspaceId={workspaceId}
            view={view}
            layout={layout}
            gridRef={gridRef}
            renaming={renaming}
            reveal={nav.reveal}
            actions={listActions}
          />
          {count > 0 && (
            <SelectionBar
              count={count}
              actions={actions.filter((a) => a.id !== "open" && a.id !== "copy")}
              onClear={() => {
                clearSelection();
                nav.focusGrid();
              }}
            />
          )}
        </div>
        {details.open && (
          <Suspense
            fallback={details.beside && <div className="w-80 shrink-0 border-l border-border" />}
          >
            <DetailsPanel
              beside={details.beside}
              workspaceId={workspaceId}
              entry={total > 0 ? activeEntry : null}
              selected={count}
              canWrite={canWrite}
              tab={details.tab}
              onTabChange={details.setTab}
              onClose={() => details.setOpen(false)}
            />
          </Suspense>
        )}
      </div>
      <FilesOverlays
        folder={view.path}
        menu={menu}
        menuTitle={
          single ? `Actions for ${single.name}` : `Actions for ${formatCount(count)} items`
        }
        actions={actions}
        onCloseMenu={() => {
          setMenu(null);
          nav.refocusGrid();
        }}
        dialog={dialog}
        onCloseDialog={closeDialog}
        onStartOperation={onStartOperation}
        onRenamedMany={clearSelection}
      />
    </div>
  );
}
