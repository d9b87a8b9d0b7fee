import { Suspense } from "react";
import type { CreateOperationBody, OperationConflict } from "@/contract/operations";
import { lazyWithRetry } from "@/web/components/lazy-with-retry";
import type { DeleteTarget } from "../hooks/use-delete-permanently";
import type { FileAction } from "./file-actions";

const FileContextMenu = lazyWithRetry(() => import("./file-context-menu"));
const ShortcutsDialog = lazyWithRetry(() => import("./shortcuts-dialog"));
const DeletePermanentlyDialog = lazyWithRetry(() => import("./delete-permanently-dialog"));
const ManifestDialog = lazyWithRetry(() => import("./manifest-dialog"));
const MoveCopyDialog = lazyWithRetry(() => import("./move-copy-dialog"));
const ConflictDialog = lazyWithRetry(() => import("./conflict-dialog"));
const RenameBatchDialog = lazyWithRetry(() => import("./rename-batch-dialog"));
const CreateShareDialog = lazyWithRetry<{ paths: string[]; onClose(): void }>(() =>
  import("@/web/features/shares").then((m) => ({ default: m.CreateShareDialog })),
);

export type OpenDialog =
  | { kind: "shortcuts" }
  | { kind: "manifest" }
  | { kind: "delete"; target: DeleteTarget }
  | { kind: "move-copy"; op: CreateOperationBody["kind"]; paths: string[] }
  | { kind: "conflicts"; body: CreateOperationBody; conflicts: OperationConflict[] }
  | { kind: "rename-many"; paths: string[] }
  | { kind: "share"; paths: string[] }
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
  onStartOperation,
  onRenamedMany,
}: {
  folder: string;
  menu: { x: number; y: number; key: number } | null;
  menuTitle: string;
  actions: FileAction[];
  onCloseMenu(): void;
  dialog: OpenDialog;
  onCloseDialog(): void;
  /** Starts a move or copy; a conflict refusal opens the conflict dialog instead. */
  onStartOperation(body: CreateOperationBody): Promise<unknown>;
  onRenamedMany(): void;
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
          count={dialog.target.count}
          name={dialog.target.name}
          onConfirm={dialog.target.run}
          onClose={onCloseDialog}
        />
      )}
      {dialog?.kind === "move-copy" && (
        <MoveCopyDialog
          kind={dialog.op}
          paths={dialog.paths}
          folder={folder}
          onStart={onStartOperation}
          onClose={onCloseDialog}
        />
      )}
      {dialog?.kind === "conflicts" && (
        <ConflictDialog
          // A second refusal (new conflicts) starts the choices afresh.
          key={dialog.conflicts.map((c) => c.path).join("\n")}
          body={dialog.body}
          conflicts={dialog.conflicts}
          onStart={onStartOperation}
          onClose={onCloseDialog}
        />
      )}
      {dialog?.kind === "rename-many" && (
        <RenameBatchDialog paths={dialog.paths} onDone={onRenamedMany} onClose={onCloseDialog} />
      )}
      {dialog?.kind === "share" && (
        <CreateShareDialog paths={dialog.paths} onClose={onCloseDialog} />
      )}
    </Suspense>
  );
}
