import { useQueries } from "@tanstack/react-query";
import { ArrowUpIcon, ChevronRightIcon, FolderIcon } from "lucide-react";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { parentOf } from "@/contract/rules";
import { Button } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";
import { FILES_PAGE_SIZE, filesPageQueryOptions } from "@/web/features/files/api/list-files";
import { isWithin } from "@/web/features/files/hooks/use-drag-move";
import { describeError } from "@/web/lib/api-client";

const byName = { sort: "name", order: "asc" } as const;

/**
 * Browse to a folder: the folder shown is the one chosen. Its subfolders are buttons that open
 * them (↑ ↓ Home End move between them, Backspace goes up); folders being moved cannot be opened,
 * since nothing can go inside itself. Listings put folders first, so the pages read stop at the
 * first file.
 */
export function FolderPicker({
  workspaceId,
  folder,
  onFolderChange,
  blocked,
}: {
  workspaceId: string;
  folder: string;
  onFolderChange(folder: string): void;
  /** Folders that cannot be entered (the ones being moved). */
  blocked: readonly string[];
}) {
  const [pageCount, setPageCount] = useState(1);
  const listRef = useRef<HTMLUListElement>(null);
  const pages = useQueries({
    queries: Array.from({ length: pageCount }, (_, page) =>
      filesPageQueryOptions(workspaceId, { path: folder, ...byName }, page),
    ),
  });
  const items = pages.flatMap((p) => p.data?.items ?? []);
  const folders = items.filter((entry) => entry.type === "folder");
  const last = pages.at(-1)?.data;
  const more =
    !!last &&
    last.items.length === FILES_PAGE_SIZE &&
    last.items.every((entry) => entry.type === "folder");
  const loading = pages.some((p) => p.isPending);
  const error = pages.find((p) => p.error)?.error;

  // Opening a folder replaces the buttons under the keyboard: focus goes on to the new list.
  const refocus = useRef(false);
  useEffect(() => {
    if (!refocus.current || loading) return;
    refocus.current = false;
    (listRef.current?.querySelector<HTMLElement>("button") ?? upRef.current)?.focus();
  });
  const upRef = useRef<HTMLButtonElement>(null);
  const open = (path: string) => {
    refocus.current = listRef.current?.contains(document.activeElement) ?? false;
    setPageCount(1);
    onFolderChange(path);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const buttons = [...(listRef.current?.querySelectorAll<HTMLButtonElement>("button") ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next =
      e.key === "ArrowDown"
        ? at + 1
        : e.key === "ArrowUp"
          ? at - 1
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? buttons.length - 1
              : null;
    if (next !== null) {
      e.preventDefault();
      buttons[Math.max(0, Math.min(buttons.length - 1, next))]?.focus();
    } else if (e.key === "Backspace" && folder) {
      e.preventDefault();
      open(parentOf(folder));
    }
  };

  return (
    <div className="grid gap-2">
      <div className="flex min-w-0 items-center gap-2">
        <Button
          ref={upRef}
          type="button"
          size="icon-sm"
          variant="outline"
          disabled={!folder}
          aria-label="Up to the parent folder"
          title="Up to the parent folder (Backspace)"
          onClick={() => open(parentOf(folder))}
        >
          <ArrowUpIcon aria-hidden="true" />
        </Button>
        <p className="min-w-0 truncate text-sm font-medium" aria-live="polite">
          <span className="sr-only">Destination: </span>
          {folder || "Workspace root"}
        </p>
      </div>
      <div className="h-56 overflow-y-auto rounded-md border border-border">
        {loading && folders.length === 0 ? (
          <div className="grid gap-2 p-2" role="status" aria-label="Loading folders">
            <Skeleton className="h-6 w-2/3" />
            <Skeleton className="h-6 w-1/2" />
          </div>
        ) : error ? (
          <p role="alert" className="p-3 text-sm text-destructive-text">
            {describeError(error)}
          </p>
        ) : folders.length === 0 ? (
          <p className="p-3 text-sm text-muted-foreground">No folders inside.</p>
        ) : (
          <ul
            ref={listRef}
            aria-label={`Folders in ${folder || "the workspace root"}`}
            onKeyDown={onKeyDown}
          >
            {folders.map((entry) => {
              const isBlocked = blocked.some((b) => isWithin(entry.path, b));
              return (
                <li key={entry.path}>
                  <button
                    type="button"
                    disabled={isBlocked}
                    title={isBlocked ? "A folder cannot go inside itself" : undefined}
                    onClick={() => open(entry.path)}
                    className="flex w-full min-w-0 items-center gap-2 px-3 py-1.5 text-left text-sm hover:bg-accent focus-visible:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring disabled:opacity-50"
                  >
                    <FolderIcon
                      className="size-4 shrink-0 text-muted-foreground"
                      aria-hidden="true"
                    />
                    <span className="min-w-0 flex-1 truncate">{entry.name}</span>
                    <ChevronRightIcon
                      className="size-4 shrink-0 text-muted-foreground"
                      aria-hidden="true"
                    />
                  </button>
                </li>
              );
            })}
            {more && (
              <li>
                <button
                  type="button"
                  onClick={() => setPageCount((n) => n + 1)}
                  className="w-full px-3 py-1.5 text-left text-sm text-link hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring"
                >
                  More folders…
                </button>
              </li>
            )}
          </ul>
        )}
      </div>
    </div>
  );
}
