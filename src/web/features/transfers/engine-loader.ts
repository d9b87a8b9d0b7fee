import type { QueryClient } from "@tanstack/react-query";
import { toast } from "@/web/stores/toast-store";
import { useUploadsSeen } from "@/web/stores/uploads-seen-store";
import type { FolderFiles } from "./engine/download-engine";
import type { Download } from "./engine/start";
import type { PickedFile } from "./transfer-model";

// The engines load on first use (an upload or a download), never with a page.
const start = () =>
  import("./engine/start").catch((error: unknown) => {
    toast({
      title: "Could not load the transfer engine",
      description: "Check the connection and try again.",
      tone: "error",
    });
    throw error;
  });

/** Uploads what was picked or dropped into `folder` (errors are shown, not thrown). */
export function uploadPicked(o: {
  queryClient: QueryClient;
  workspaceId: string;
  folder: string;
  picked: PickedFile[];
}) {
  useUploadsSeen.setState({ seen: true });
  return start().then(
    (engine) => engine.uploadPicked(o),
    () => {},
  );
}

/** Downloads a file, a folder or a selection (errors are shown, not thrown). */
export function download(queryClient: QueryClient, what: Download) {
  return start().then(
    (engine) => engine.download(queryClient, what),
    () => {},
  );
}

/** A Range-readable link to one file's bytes for a player (rejects when it cannot be made). */
export const streamLink = (queryClient: QueryClient, file: { path: string; size: number }) =>
  import("./engine/download-engine").then((engine) => engine.streamLink(queryClient, file));

/** Where the browser can write into a folder the person picks (Chromium's File System Access). */
export const canSaveIntoFolder = () => "showDirectoryPicker" in window;

/**
 * "Save into a folder…": asks where first (while the click still counts as the person's), then
 * writes each file of `folder` there. `list` gives the folder's files (the files feature's
 * manifest).
 */
export async function saveIntoFolder(
  queryClient: QueryClient,
  o: { folder: string; list(): Promise<FolderFiles> },
) {
  let into: FileSystemDirectoryHandle;
  try {
    into = await (
      window as unknown as {
        showDirectoryPicker(o: { mode: "readwrite" }): Promise<FileSystemDirectoryHandle>;
      }
    ).showDirectoryPicker({ mode: "readwrite" });
  } catch {
    // Closed without choosing.
    return;
  }
  return start().then(
    (engine) => engine.saveIntoFolder(queryClient, { ...o, into }),
    () => {},
  );
}
