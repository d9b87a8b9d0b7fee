import { type QueryClient, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import {
  CopyIcon,
  FolderOpenIcon,
  HistoryIcon,
  InfoIcon,
  KeyboardIcon,
  ListChecksIcon,
  PanelRightIcon,
  PencilIcon,
  Trash2Icon,
  XCircleIcon,
} from "lucide-react";
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { FileEntry, SearchResult } from "@/contract/files";
import { baseName, type FileSortField, parentOf } from "@/contract/rules";
import { EmptyState } from "@/web/components/empty-state";
import { LoadError } from "@/web/components/load-error";
import { Button } from "@/web/components/ui/button";
import { SkeletonRows } from "@/web/components/ui/skeleton";
import { useRestoreTrashedPathsMutation } from "@/web/features/trash";
import { describeError } from "@/web/lib/api-client";
import { copyText } from "@/web/lib/clipboard";
import { formatCount } from "@/web/lib/format";
import { toast } from "@/web/stores/toast-store";
import { useDeleteFilesMutation } from "./api/delete-files";
import type { FolderView } from "./api/files-keys";
import { FILES_PAGE_SIZE, filesPageQueryOptions, readFilesPages } from "./api/list-files";
import { Breadcrumbs } from "./components/breadcrumbs";
import type { DetailsTab } from "./components/details-panel";
import type { FileAction } from "./components/file-actions";
import { FileList, type FileListActions } from "./components/file-list";
import { NewFolderButton } from "./components/new-folder-button";
import { SearchBox } from "./components/search-box";
import { SelectionBar } from "./components/selection-bar";
import { ViewToggle } from "./components/view-toggle";
import type { EntryRef } from "./state/name-order";
import {
  emptySelection,
  isSelected,
  pickSelected,
  type Selection,
  selectedCount,
  selectPaths,
} from "./state/selection";
import { selectionScope, useSelection, useSelectionStore } from "./state/selection-store";
import { useFilesViewStore } from "./state/view-store";

const FileContextMenu = lazy(() => import("./components/file-context-menu"));
const ShortcutsDialog = lazy(() => import("./components/shortcuts-dialog"));
const DeletePermanentlyDialog = lazy(() => import("./components/delete-permanently-dialog"));
const DetailsPanel = lazy(() => import("./components/details-panel"));
const ManifestDialog = lazy(() => import("./components/manifest-dialog"));

const describeMany = (paths: string[]) =>
  paths.length === 1 ? `“${baseName(paths[0] ?? "")}”` : `${formatCount(paths.length)} items`;

/**
 * Undo restores one item per request (the service has no batch restore), and the service allows
 * 600 requests a minute per key, shared with the browsing around it: beyond this many, the
 * Trash page is the way back.
 */
const UNDO_LIMIT = 200;

/** The selected paths; "all except" reads the folder's pages (only when an action needs it). */
async function resolveSelection(
  queryClient: QueryClient,
  workspaceId: string,
  view: FolderView,
  total: number,
  selection: Selection,
): Promise<string[]> {
  if (selection.mode === "some") return [...selection.ids];
  const pages = await readFilesPages(
    queryClient,
    workspaceId,
    view,
    0,
    Math.ceil(total / FILES_PAGE_SIZE) - 1,
  );
  return pickSelected(
    selection,
    pages.flatMap((page) => page.items.map((entry) => entry.path)),
  );
}

type OpenDialog =
  | { kind: "shortcuts" }
  | { kind: "manifest" }
  | { kind: "delete"; paths: string[] }
  | null;

export function FilesPage({ workspaceId, view }: { workspaceId: string; view: FolderView }) {
  const navigate = useNavigate({ from: "/files" });
  const { select: selectParam } = useSearch({ from: "/_app/files" });
  const queryClient = useQueryClient();
  const first = useQuery(filesPageQueryOptions(workspaceId, view, 0));
  const layout = useFilesViewStore((s) => s.layout);
  const detailsOpen = useFilesViewStore((s) => s.detailsOpen);
  const setDetailsOpen = useFilesViewStore((s) => s.setDetailsOpen);
  const gridRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  /** The folder whose grid takes focus once its first page shows (see openFolder). */
  const focusWhenShown = useRef<string | null>(null);
  const scope = selectionScope(view);
  const selection = useSelection(scope);
  const setSelection = useSelectionStore((s) => s.set);
  const [activeEntry, setActiveEntry] = useState<FileEntry | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [reveal, setReveal] = useState<EntryRef | null>(null);
  const [menu, setMenu] = useState<{ x: number; y: number; key: number } | null>(null);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [detailsTab, setDetailsTab] = useState<DetailsTab>("details");
  const deleteFiles = useDeleteFilesMutation();
  const restoreTrashed = useRestoreTrashedPathsMutation();

  const total = first.data?.total ?? 0;
  const count = selectedCount(selection, total);
  const canWrite = first.data?.access === "write";
  const single =
    count === 1 && activeEntry && isSelected(selection, activeEntry.path) ? activeEntry : null;
  // A service without the sort extension answers in name order, ascending, and leaves out
  // `sort` and `order`; showing that as any other order would also misdirect locateEntry.
  const sortIgnored =
    first.data !== undefined &&
    (view.sort !== "name" || view.order !== "asc") &&
    (first.data.sort !== view.sort || first.data.order !== view.order);
  useEffect(() => {
    if (!sortIgnored) return;
    toast({
      title: "Showing name order",
      description: "This service sorts by name, ascending, only.",
    });
    void navigate({ search: (s) => ({ ...s, sort: undefined, order: undefined }), replace: true });
  }, [sortIgnored, navigate]);
  const urlReveal = useMemo<EntryRef | null>(
    () => (selectParam ? { path: selectParam, type: "file" } : null),
    [selectParam],
  );

  const focusGrid = () => gridRef.current?.focus();
  /**
   * The grid remounts for another folder (or order), behind a skeleton while it loads, so focus
   * falls to the page: someone moving with the keys, or whose focus was in the grid, gets it
   * back there.
   */
  const openFolder = useCallback(
    (path: string, fromKeyboard = false) => {
      focusWhenShown.current =
        fromKeyboard || gridRef.current?.contains(document.activeElement) ? path : null;
      void navigate({ search: (s) => ({ ...s, path: path || undefined, select: undefined }) });
    },
    [navigate],
  );
  useEffect(() => {
    if (focusWhenShown.current !== view.path || sortIgnored || (!first.data && !first.isError))
      return;
    focusWhenShown.current = null;
    // Unless the person has put focus somewhere since (an empty or failed folder has no grid).
    if (document.activeElement === document.body) gridRef.current?.focus();
  }, [view.path, first.data, first.isError, sortIgnored]);
  /**
   * After a menu or dialog closes: lazily mounted Radix layers have no trigger to hand focus
   * back to, so it would fall to the body; the grid takes it unless an action put it elsewhere.
   */
  const refocusGrid = () =>
    setTimeout(() => {
      if (document.activeElement === document.body) focusGrid();
    });
  const closeDialog = () => {
    setDialog(null);
    refocusGrid();
  };
  const currentSelection = () => {
    const s = useSelectionStore.getState();
    return s.scope === scope ? s.selection : emptySelection;
  };
  const selectedPaths = () =>
    resolveSelection(queryClient, workspaceId, view, total, currentSelection());

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.defaultPrevented) return;
      const target = e.target as HTMLElement;
      if (
        target.closest(
          "input, textarea, select, [contenteditable=true], [role=dialog], [role=alertdialog], [role=menu]",
        )
      )
        return;
      // The grid takes these keys itself; an empty or failed folder has none to take them.
      if (e.altKey ? e.key === "ArrowUp" : e.key === "Backspace") {
        if (gridRef.current || !view.path) return;
        e.preventDefault();
        openFolder(parentOf(view.path), true);
      } else if (e.altKey) return;
      else if (e.key === "/") {
        e.preventDefault();
        searchRef.current?.focus();
      } else if (e.key === "?") {
        e.preventDefault();
        setDialog({ kind: "shortcuts" });
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [view.path, openFolder]);
  const onOpen = (entry: FileEntry) => {
    if (entry.type === "folder") openFolder(entry.path);
    else {
      setDetailsTab("details");
      setDetailsOpen(true);
    }
  };
  const onSort = (sort: FileSortField) => {
    if (gridRef.current?.contains(document.activeElement)) focusWhenShown.current = view.path;
    void navigate({
      search: (s) => ({
        ...s,
        sort: sort === "name" ? undefined : sort,
        order: view.sort === sort && view.order === "asc" ? "desc" : undefined,
      }),
    });
  };

  const onOpenResult = (result: SearchResult) => {
    if (result.type === "folder") {
      focusWhenShown.current = result.path;
      void navigate({ search: { path: result.path } });
    } else if (result.folder === view.path) setReveal({ path: result.path, type: "file" });
    else void navigate({ search: { path: result.folder || undefined, select: result.path } });
  };

  const trashSelected = async () => {
    const paths = await selectedPaths();
    if (paths.length === 0) return;
    const what = describeMany(paths);
    deleteFiles.mutate(
      { paths, permanent: false },
      {
        onSuccess: () => {
          setSelection(scope, emptySelection);
          if (paths.length > UNDO_LIMIT) {
            toast({
              title: `Moved ${what} to the trash`,
              description: `Undo is offered for up to ${UNDO_LIMIT} items: restore these from the Trash page.`,
            });
            return;
          }
          toast({
            title: `Moved ${what} to the trash`,
            action: {
              label: "Undo",
              onClick: () =>
                restoreTrashed.mutate(paths, {
                  onSuccess: () => {
                    setSelection(scope, selectPaths(paths));
                    toast({ title: `Restored ${what}` });
                  },
                  onError: (error) =>
                    toast({
                      title: "Could not undo",
                      description: `${describeError(error)} The items are in the trash.`,
                      tone: "error",
                    }),
                }),
            },
          });
        },
        onError: (error) =>
          toast({
            title: `Could not move ${what} to the trash`,
            description: describeError(error),
            tone: "error",
          }),
      },
    );
  };

  const askDeletePermanently = async () => {
    const paths = await selectedPaths();
    if (paths.length > 0) setDialog({ kind: "delete", paths });
  };

  const showDetails = (tab: DetailsTab) => {
    setDetailsTab(tab);
    setDetailsOpen(true);
  };

  const actions: FileAction[] = [
    ...(single
      ? [
          {
            id: "open",
            label: "Open",
            icon: FolderOpenIcon,
            shortcut: "Enter",
            run: () => onOpen(single),
          },
        ]
      : []),
    ...(single && canWrite
      ? [
          {
            id: "rename",
            label: "Rename",
            icon: PencilIcon,
            shortcut: "F2",
            run: () => setRenaming(single.path),
          },
        ]
      : []),
    { id: "details", label: "Details", icon: InfoIcon, run: () => showDetails("details") },
    ...(single?.type === "file"
      ? [
          {
            id: "versions",
            label: "Version history",
            icon: HistoryIcon,
            run: () => showDetails("versions"),
          },
        ]
      : []),
    ...(single
      ? [
          {
            id: "copy",
            label: "Copy path",
            icon: CopyIcon,
            run: () => void copyText(single.path, "Copied the path"),
          },
        ]
      : []),
    ...(canWrite
      ? [
          {
            id: "trash",
            label: "Move to trash",
            icon: Trash2Icon,
            shortcut: "Delete",
            group: true,
            run: () => void trashSelected(),
          },
          {
            id: "delete",
            label: "Delete permanently…",
            icon: XCircleIcon,
            shortcut: "Shift+Delete",
            destructive: true,
            run: () => void askDeletePermanently(),
          },
        ]
      : []),
  ];

  const listActions: FileListActions = {
    onOpen,
    onParent: () => view.path && openFolder(parentOf(view.path)),
    onSort,
    onActiveEntry: setActiveEntry,
    onRename: (entry) => setRenaming(entry.path),
    onRenameDone: (renamed) => {
      setRenaming(null);
      if (renamed) setReveal(renamed);
      else focusGrid();
    },
    onTrash: () => void trashSelected(),
    onDeletePermanently: () => void askDeletePermanently(),
    onContextMenu: ({ x, y }) => setMenu({ x, y, key: Date.now() }),
    onRevealed: () => {
      setReveal(null);
      if (selectParam)
        void navigate({ search: (s) => ({ ...s, select: undefined }), replace: true });
      focusGrid();
    },
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex flex-wrap items-center gap-3 border-b border-border px-4 py-3">
        <h1 className="sr-only">Files</h1>
        <div className="min-w-0 flex-1">
          <Breadcrumbs path={view.path} />
          {first.data && (
            <p className="mt-0.5 text-xs text-muted-foreground" aria-live="polite">
              {formatCount(first.data.total)} item{first.data.total === 1 ? "" : "s"}
              {first.data.access === "read" && " · read-only"}
            </p>
          )}
        </div>
        <SearchBox
          workspaceId={workspaceId}
          folder={view.path}
          inputRef={searchRef}
          onOpenResult={onOpenResult}
        />
        <ViewToggle />
        <Button
          variant="outline"
          size="icon"
          aria-label="Details panel"
          title="Details panel"
          aria-pressed={detailsOpen}
          onClick={() => setDetailsOpen(!detailsOpen)}
        >
          <PanelRightIcon aria-hidden="true" />
        </Button>
        <Button
          variant="outline"
          size="icon"
          aria-label="Manifest"
          title="Manifest: every file below this folder, as CSV or JSON"
          onClick={() => setDialog({ kind: "manifest" })}
        >
          <ListChecksIcon aria-hidden="true" />
        </Button>
        <Button
          variant="outline"
          size="icon"
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          aria-keyshortcuts="?"
          onClick={() => setDialog({ kind: "shortcuts" })}
        >
          <KeyboardIcon aria-hidden="true" />
        </Button>
        {canWrite && <NewFolderButton folder={view.path} />}
      </div>
      <div className="relative flex min-h-0 flex-1">
        {first.isPending || sortIgnored ? (
          <SkeletonRows
            label="Loading the folder"
            rows={12}
            rowClassName="h-7"
            className="flex-1 content-start p-4"
          />
        ) : first.isError ? (
          <div className="flex-1 p-4">
            <LoadError
              title={`Could not open ${view.path ? `“${view.path}”` : "the workspace root"}`}
              error={first.error}
              onRetry={() => void first.refetch()}
            >
              {view.path && (
                <Button
                  size="sm"
                  variant="outline"
                  // A click from the keyboard (Enter, Space) has no pointer detail.
                  onClick={(e) => openFolder(parentOf(view.path), e.detail === 0)}
                >
                  Go to the parent folder
                </Button>
              )}
            </LoadError>
          </div>
        ) : first.data.total === 0 ? (
          <div className="flex-1">
            <EmptyState icon={FolderOpenIcon} title="This folder is empty">
              Create a folder, or send files here with a transfer.
            </EmptyState>
          </div>
        ) : (
          <FileList
            key={`${scope}|${layout}`}
            workspaceId={workspaceId}
            view={view}
            firstPage={first.data}
            layout={layout}
            gridRef={gridRef}
            renaming={renaming}
            reveal={reveal ?? urlReveal}
            actions={listActions}
          />
        )}
        {detailsOpen && (
          <Suspense fallback={<div className="w-80 shrink-0 border-l border-border" />}>
            <DetailsPanel
              workspaceId={workspaceId}
              entry={total > 0 ? activeEntry : null}
              selected={count}
              canWrite={canWrite}
              tab={detailsTab}
              onTabChange={setDetailsTab}
              onClose={() => setDetailsOpen(false)}
            />
          </Suspense>
        )}
        {count > 0 && (
          <SelectionBar
            count={count}
            actions={actions.filter((a) => a.id !== "open" && a.id !== "copy")}
            onClear={() => {
              setSelection(scope, emptySelection);
              focusGrid();
            }}
          />
        )}
      </div>
      <Suspense fallback={null}>
        {menu && (
          <FileContextMenu
            key={menu.key}
            x={menu.x}
            y={menu.y}
            title={
              single ? `Actions for ${single.name}` : `Actions for ${formatCount(count)} items`
            }
            actions={actions}
            onClose={() => {
              setMenu(null);
              refocusGrid();
            }}
          />
        )}
        {dialog?.kind === "shortcuts" && <ShortcutsDialog onClose={closeDialog} />}
        {dialog?.kind === "manifest" && <ManifestDialog folder={view.path} onClose={closeDialog} />}
        {dialog?.kind === "delete" && (
          <DeletePermanentlyDialog
            count={dialog.paths.length}
            name={dialog.paths.length === 1 ? baseName(dialog.paths[0] ?? "") : null}
            onConfirm={() =>
              deleteFiles.mutateAsync({ paths: dialog.paths, permanent: true }).then(() => {
                setSelection(scope, emptySelection);
                toast({ title: `Deleted ${describeMany(dialog.paths)} permanently` });
              })
            }
            onClose={closeDialog}
          />
        )}
      </Suspense>
    </div>
  );
}
