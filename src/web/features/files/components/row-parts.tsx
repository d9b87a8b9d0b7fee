import { type MouseEvent, Suspense } from "react";
import { formatBytes, formatCount } from "@/browser/format";
import type { FileEntry } from "@/contract/files";
import { lazyWithRetry } from "@/web/components/lazy-with-retry";
import { NativeCheckbox } from "@/web/components/ui/native-checkbox";
import type { EntryRef } from "@/web/features/files/state/name-order";

/**
 * The rename field loads on first use, so the list's first download holds no form (FormField,
 * its label primitive, useAsyncSubmit: ≈2.4 KB gzip). The list preloads it when it takes focus
 * with write access, and once here it is rendered directly, without a Suspense tick that could
 * swallow the first keys typed after F2.
 */
let LoadedRenameInput: typeof import("./rename-input").default | undefined;
const loadRenameInput = () =>
  import("./rename-input").then((module) => {
    LoadedRenameInput = module.default;
    return module;
  });
const LazyRenameInput = lazyWithRetry(loadRenameInput);
export const preloadRenameInput = () => void loadRenameInput().catch(() => undefined);

/**
 * What rows and tiles call. Rows are memoized so a scroll frame renders only the rows it brings
 * into view; they reach the list's current handlers through one stable object of this shape.
 */
export interface RowHandlers {
  click(e: MouseEvent, index: number, entry: FileEntry | undefined): void;
  contextMenu(e: MouseEvent, index: number, entry: FileEntry | undefined): void;
  open(entry: FileEntry): void;
  checkbox(e: MouseEvent, index: number, entry: FileEntry): void;
  renameDone(renamed: EntryRef | null): void;
}

/** What a row or tile shows of an entry and how it is drawn. */
export interface RowProps {
  id: string;
  index: number;
  entry: FileEntry | undefined;
  selected: boolean;
  active: boolean;
  renaming: boolean;
  handlers: RowHandlers;
}

/** A folder under a drag that would take it (see use-drag-move). */
export const dropTargetClass =
  "data-drop-target:bg-accent data-drop-target:ring-2 data-drop-target:ring-inset data-drop-target:ring-primary";

/** A folder's item count or a file's size. */
export const entrySize = (entry: FileEntry) =>
  entry.type === "folder"
    ? `${formatCount(entry.childCount ?? 0)} item${entry.childCount === 1 ? "" : "s"}`
    : formatBytes(entry.sizeBytes);

export function RowCheckbox({
  entry,
  index,
  checked,
  className,
  onClick,
}: {
  entry: FileEntry;
  index: number;
  checked: boolean;
  className?: string;
  onClick: RowHandlers["checkbox"];
}) {
  return (
    <NativeCheckbox
      checked={checked}
      readOnly
      aria-label={`Select ${entry.name}`}
      tabIndex={-1}
      className={className}
      // Keeps focus on the grid, whose keyboard model the checkbox is part of.
      onMouseDown={(e) => e.preventDefault()}
      onClick={(e) => onClick(e, index, entry)}
    />
  );
}

export function NameOrEditor({
  entry,
  renaming,
  onRenameDone,
}: {
  entry: FileEntry;
  renaming: boolean;
  onRenameDone: RowHandlers["renameDone"];
}) {
  const name = (
    <span className="truncate" title={entry.name}>
      {entry.name}
    </span>
  );
  const RenameInput = LoadedRenameInput ?? LazyRenameInput;
  return renaming ? (
    <Suspense fallback={name}>
      <RenameInput entry={entry} onClose={(renamed) => onRenameDone(renamed ?? null)} />
    </Suspense>
  ) : (
    name
  );
}
