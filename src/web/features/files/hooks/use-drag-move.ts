import type { DragEvent } from "react";
import { formatCount } from "@/browser/format";
import type { FileEntry } from "@/contract/files";
import { isSelected, type Selection, selectOnly } from "@/web/features/files/state/selection";
import { isFileDrag } from "@/web/features/transfers";

/** `path` is `folder` or inside it. */
export const isWithin = (path: string, folder: string) =>
  path === folder || path.startsWith(`${folder}/`);

/** What is being dragged: listed paths, or the whole selection when it is "all except…". */
export type DraggedItems = readonly string[] | "selection";

/** What a drop asks the page to do. */
export type DropOnto = (items: DraggedItems, destination: string, copy: boolean) => void;

/** Files and folders dropped from the desktop into `destination` (read during the drop). */
export type DropFiles = (destination: string, dataTransfer: DataTransfer) => void;

/**
 * The drag in progress in this tab. A drag's data cannot be read until the drop, yet each folder
 * it passes over must say at once whether it takes it; drags from elsewhere (files from the
 * desktop) leave this null and are not taken.
 */
let dragged: { items: DraggedItems; from: string } | null = null;

const DRAG_TYPE = "application/x-consign-paths";
const TARGET_ATTR = "data-drop-target";

/** Starts dragging `items` out of `folder`; Alt (Option) at the drop makes it a copy. */
export function startDrag(e: DragEvent, items: DraggedItems, folder: string, label: string) {
  dragged = { items, from: folder };
  e.dataTransfer.effectAllowed = "copyMove";
  e.dataTransfer.setData(DRAG_TYPE, items === "selection" ? "selection" : JSON.stringify(items));
  e.dataTransfer.setData("text/plain", label);
}

export function endDrag() {
  dragged = null;
  for (const el of document.querySelectorAll(`[${TARGET_ATTR}]`)) el.removeAttribute(TARGET_ATTR);
}

/** A folder takes the drag unless it is where the items are, or one of them, or inside one. */
function takes(destination: string): boolean {
  if (!dragged) return false;
  if (destination === dragged.from) return false;
  // The selected folders themselves are refused by the list, which knows what is selected.
  if (dragged.items === "selection") return true;
  return !dragged.items.some((p) => isWithin(destination, p));
}

/**
 * Over a folder: accept the drag (preventDefault is how a drop target says yes), show the move
 * or copy cursor, and mark the element so it is drawn as the target.
 */
export function dragOverFolder(e: DragEvent, destination: string, el: Element): boolean {
  if (!takes(destination)) return false;
  e.preventDefault();
  e.dataTransfer.dropEffect = e.altKey ? "copy" : "move";
  markTarget(el);
  return true;
}

function markTarget(el: Element) {
  if (el.hasAttribute(TARGET_ATTR)) return;
  for (const other of document.querySelectorAll(`[${TARGET_ATTR}]`))
    other.removeAttribute(TARGET_ATTR);
  el.setAttribute(TARGET_ATTR, "");
}

/** Files from the desktop (not a drag of rows in this tab), taken only where they can be written. */
const takesFiles = (e: DragEvent, onDropFiles: DropFiles | undefined): onDropFiles is DropFiles =>
  !!onDropFiles && !dragged && isFileDrag(e.dataTransfer);

/**
 * The handlers that make an element (an empty folder's page) take files dropped from the
 * desktop into `destination`.
 */
export function fileDropProps(destination: string, onDropFiles: DropFiles | undefined) {
  return {
    onDragOver: (e: DragEvent<HTMLElement>) => {
      if (!takesFiles(e, onDropFiles)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = "copy";
      markTarget(e.currentTarget);
    },
    onDragLeave: (e: DragEvent<HTMLElement>) => dragLeave(e.currentTarget, e.relatedTarget),
    onDrop: (e: DragEvent<HTMLElement>) => {
      if (!takesFiles(e, onDropFiles)) return;
      e.preventDefault();
      endDrag();
      onDropFiles(destination, e.dataTransfer);
    },
  };
}

export function dragLeave(el: Element, related: EventTarget | null) {
  if (!(related instanceof Node && el.contains(related))) el.removeAttribute(TARGET_ATTR);
}

export function dropOnFolder(e: DragEvent, destination: string, onDrop: DropOnto) {
  const current = dragged;
  endDrag();
  if (!current || !e.dataTransfer.types.includes(DRAG_TYPE)) return;
  e.preventDefault();
  onDrop(current.items, destination, e.altKey);
}

/** The handlers that make an element (a breadcrumb) a drop target for `destination`. */
export function folderDropProps(destination: string, onDrop: DropOnto) {
  return {
    onDragOver: (e: DragEvent<HTMLElement>) => dragOverFolder(e, destination, e.currentTarget),
    onDragLeave: (e: DragEvent<HTMLElement>) => dragLeave(e.currentTarget, e.relatedTarget),
    onDrop: (e: DragEvent<HTMLElement>) => dropOnFolder(e, destination, onDrop),
  };
}

/**
 * Dragging rows or tiles of the list, handled once on the grid rather than on every (virtualized)
 * row: a selected item drags the selection, another drags itself (and becomes the selection);
 * a folder row under the pointer that is not being dragged is a drop target. Files dropped from
 * the desktop go into the folder row under the pointer, or else into this folder.
 */
export function gridDragProps(o: {
  folder: string;
  canWrite: boolean;
  selection: Selection;
  selectedCount: number;
  entryAt(index: number): FileEntry | undefined;
  select(next: Selection, anchor?: number): void;
  onDrop: DropOnto;
  onDropFiles?: DropFiles;
}) {
  const at = (e: DragEvent) => {
    const el = (e.target as Element).closest?.("[data-index]");
    const entry = el ? o.entryAt(Number(el.getAttribute("data-index"))) : undefined;
    return el && entry ? { el, entry, index: Number(el.getAttribute("data-index")) } : null;
  };
  const folderAt = (e: DragEvent) => {
    const hit = at(e);
    return hit?.entry.type === "folder" && !isSelected(o.selection, hit.entry.path) ? hit : null;
  };
  return {
    onDragStart: (e: DragEvent) => {
      const hit = at(e);
      if (!hit || !o.canWrite) {
        e.preventDefault();
        return;
      }
      const { entry, index } = hit;
      if (!isSelected(o.selection, entry.path)) {
        o.select(selectOnly(entry.path), index);
        startDrag(e, [entry.path], o.folder, entry.name);
      } else if (o.selection.mode === "some")
        startDrag(e, [...o.selection.ids], o.folder, `${formatCount(o.selectedCount)} items`);
      else startDrag(e, "selection", o.folder, `${formatCount(o.selectedCount)} items`);
    },
    onDragEnd: endDrag,
    onDragOver: (e: DragEvent) => {
      if (takesFiles(e, o.onDropFiles)) {
        const hit = at(e);
        e.preventDefault();
        e.dataTransfer.dropEffect = "copy";
        markTarget(hit?.entry.type === "folder" ? hit.el : (e.currentTarget as Element));
        return;
      }
      const hit = folderAt(e);
      if (hit) dragOverFolder(e, hit.entry.path, hit.el);
    },
    onDragLeave: (e: DragEvent) => {
      const hit = at(e);
      if (hit) dragLeave(hit.el, e.relatedTarget);
      dragLeave(e.currentTarget as Element, e.relatedTarget);
    },
    onDrop: (e: DragEvent) => {
      if (takesFiles(e, o.onDropFiles)) {
        const hit = at(e);
        e.preventDefault();
        endDrag();
        o.onDropFiles(hit?.entry.type === "folder" ? hit.entry.path : o.folder, e.dataTransfer);
        return;
      }
      const hit = folderAt(e);
      if (hit) dropOnFolder(e, hit.entry.path, o.onDrop);
      else endDrag();
    },
  };
}
