import type { QueryClient } from "@tanstack/react-query";
import { formatCount } from "@/browser/format";
import { filesInFolder } from "@/browser/walk-folder";
import { describeError } from "@/web/lib/api-client";
import { toast } from "@/web/stores/toast-store";
import type { PickedFile } from "../transfer-model";
import type { FolderFiles } from "./download-engine";

/**
 * Every file in a dropped folder, each with its path under the drop (`Shots/a/1.exr`). Walking
 * loads with the rest of what starts a transfer.
 */
export const walkFolder = async (folder: FileSystemDirectoryEntry): Promise<PickedFile[]> =>
  (await filesInFolder(folder)).map(({ file, path }) => ({ file, relativePath: path }));

/** Uploads what was picked or dropped into `folder`; says so when it cannot start. */
export async function uploadPicked(o: {
  queryClient: QueryClient;
  workspaceId: string;
  folder: string;
  picked: PickedFile[];
}) {
  if (o.picked.length === 0) {
    toast({ title: "Nothing to upload", description: "The folder holds no files.", tone: "error" });
    return;
  }
  try {
    await (await import("./upload-engine")).startUpload(o);
  } catch (error) {
    toast({
      title: `Could not upload ${formatCount(o.picked.length)} file${o.picked.length === 1 ? "" : "s"}`,
      description: describeError(error),
      tone: "error",
    });
  }
}

export type Download =
  | { kind: "file"; path: string; size: number }
  | { kind: "folder"; folder: string }
  | { kind: "selection"; paths: string[] };

/** Downloads a file (Range), a folder or a selection (one ZIP); says so when it cannot start. */
export async function download(queryClient: QueryClient, what: Download) {
  try {
    const engine = await import("./download-engine");
    if (what.kind === "file") await engine.downloadFile(queryClient, what);
    else await engine.downloadZip(queryClient, what);
  } catch (error) {
    toast({
      title: "Could not start the download",
      description: describeError(error),
      tone: "error",
    });
  }
}

/** Saves a folder's files into a folder on this machine; says how it went. */
export async function saveIntoFolder(
  queryClient: QueryClient,
  o: { folder: string; into: FileSystemDirectoryHandle; list(): Promise<FolderFiles> },
) {
  try {
    const list = await o.list();
    if (list.truncated) {
      toast({
        title: "Too many files to save one by one",
        description: "Download the folder as a ZIP instead.",
        tone: "error",
      });
      return;
    }
    const engine = await import("./download-engine");
    const count = await engine.saveIntoFolder(queryClient, { ...o, list });
    toast({
      title: `Saved ${formatCount(count)} file${count === 1 ? "" : "s"} into “${o.into.name}”`,
    });
  } catch (error) {
    toast({
      title: `Could not save into “${o.into.name}”`,
      description: describeError(error),
      tone: "error",
    });
  }
}
