import { Suspense } from "react";
import { baseName } from "@/contract/rules";
import { lazyWithRetry } from "@/web/components/lazy-with-retry";
import type { FileAction } from "./file-actions";

const FileContextMenu = lazyWithRetry(() => import("./file-context-menu"));
const ShortcutsDialog = lazyWithRetry(() => import("./shortcuts-dialog"));
const DeletePermanentlyDialog = lazyWithRetry(() => import("./delete-permanently-dialog"));
const ManifestDialog = lazyWithRetry(() => import("./manifest-dialog"));

export type OpenDialog =
  | { kind: "shortcuts" }
  | { kind: "manifest" }
  | { kind: "delete"; paths: string[] }
  | null;

/** The page's menu and dialogs, each loaded when first opened. */
export function FilesOverlays({
  folder,
  menu,
  menuTitle,
  actions,
  onCloseMenu,
  dialog,
  onCloseDialog,
  onDeletePermanently,
}: {
  folder: string;
  menu: { x: number; y: number; key: number } | null;
  menuTitle: string;
  actions: FileAction[];
  onCloseMenu(): void;
  dialog: OpenDialog;
  onCloseDialog(): void;
  onDeletePermanently(paths: string[]): Promise<void>;
}) {
  return (
    <Suspense fallback={null}>
      {menu && (
        <FileContextMenu
          key={menu.key}
          x={menu.x}
          y={menu.y}
          title={menuTitle}
          actions={actions}
          onClose={onCloseMenu}
        />
      )}
      {dialog?.kind === "shortcuts" && <ShortcutsDialog onClose={onCloseDialog} />}
      {dialog?.kind === "manifest" && <ManifestDialog folder={folder} onClose={onCloseDialog} />}
      {dialog?.kind === "delete" && (
        <DeletePermanentlyDialog
          count={dialog.paths.length}
          name={dialog.paths.length === 1 ? baseName(dialog.paths[0] ?? "") : null}
          onConfirm={() => onDeletePermanently(dialog.paths)}
          onClose={onCloseDialog}
        />
      )}
    </Suspense>
  );
}
