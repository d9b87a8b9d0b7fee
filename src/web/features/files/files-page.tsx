import { useQuery } from "@tanstack/react-query";
import { Suspense, useRef, useState } from "react";
import { formatCount } from "@/browser/format";
import type { FileEntry } from "@/contract/files";
import { parentOf } from "@/contract/rules";
import { lazyWithRetry } from "@/web/components/lazy-with-retry";
import { useKeymap } from "@/web/lib/keymap/use-keymap";
import type { FolderView } from "@/web/lib/query-keys/files";
import { filesPageQueryOptions } from "./api/list-files";
import type { FileListActions } from "./components/file-list";
import { FilesOverlays, type OpenDialog } from "./components/files-overlays";
import { FilesToolbar } from "./components/files-toolbar";
import { FolderContents } from "./components/folder-contents";
import { SelectionBar } from "./components/selection-bar";
import { useDetailsPanel } from "./hooks/use-details-panel";
import { useFolderNavigation } from "./hooks/use-folder-navigation";
import { usePageActions } from "./hooks/use-page-actions";
import { usePageOperations } from "./hooks/use-page-operations";
import { useSortFallback } from "./hooks/use-sort-fallback";
import { filesKeymap } from "./keymap";
import { emptySelection, isSelected, selectedCount } from "./state/selection";
import { selectionScope, useSelection, useSelectionStore } from "./state/selection-store";
import { useFilesViewStore } from "./state/view-store";
import { canView, viewEntry } from "./state/viewable";

const DetailsPanel = lazyWithRetry(() => import("./components/details-panel"));

/** A folder: its toolbar, its list, the details of the focused entry, and what acts on them. */
export function FilesPage({ workspaceId, view }: { workspaceId: string; view: FolderView }) {
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
    entry.type === "folder"
      ? nav.openFolder(entry.path)
      : canView(entry)
        ? viewEntry(workspaceId, entry)
        : details.show("details");
  const closeDialog = () => {
    setDialog(null);
    nav.refocusGrid();
  };
  const { actions, trashSelected, askDeletePermanently, selectedUpTo } = usePageActions({
    workspaceId,
    view,
    total,
    canWrite,
    single,
    count,
    onOpen,
    onRename: (entry) => setRenaming(entry.path),
    onShowDetails: details.show,
    setDialog,
  });
  const { onStartOperation, onDropOnto, onDropFiles } = usePageOperations({
    workspaceId,
    selectedUpTo,
    onConflicts: (body, conflicts) => setDialog({ kind: "conflicts", body, conflicts }),
    onStarted: (body) => {
      // Moved items leave this folder; their selection would outlive them.
      if (body.kind === "move") clearSelection();
      if (dialog) closeDialog();
    },
  });

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
        <DetailsAside
          details={details}
          workspaceId={workspaceId}
          entry={total > 0 ? activeEntry : null}
          selected={count}
          canWrite={canWrite}
        />
      </div>
      <FilesOverlays
        folder={view.path}
        menu={menu}
        menuTitle={`Actions for ${single ? single.name : `${formatCount(count)} items`}`}
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

/** The details of the focused entry, when open: beside the list, or a sheet over it. */
function DetailsAside({
  details,
  ...props
}: {
  details: ReturnType<typeof useDetailsPanel>;
  workspaceId: string;
  entry: FileEntry | null;
  selected: number;
  canWrite: boolean;
}) {
  if (!details.open) return null;
  return (
    <Suspense fallback={details.beside && <div className="w-80 shrink-0 border-l border-border" />}>
      <DetailsPanel
        {...props}
        beside={details.beside}
        tab={details.tab}
        onTabChange={details.setTab}
        onClose={() => details.setOpen(false)}
      />
    </Suspense>
  );
}
