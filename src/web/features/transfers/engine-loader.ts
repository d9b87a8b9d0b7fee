import type { QueryClient } from "@tanstack/react-query";
import { create } from "zustand";
import { toast } from "@/web/stores/toast-store";
import { hasStoredUploads } from "@/web/stores/uploads-key";
import type { Download } from "./engine/start";
import type { PickedFile } from "./transfer-model";

// The engines load on first use (an upload or a download), never with a page.
export const uploadEngine = () => import("./engine/upload-engine");

const start = () =>
  import("./engine/start").catch((error: unknown) => {
    toast({
      title: "Could not load the transfer engine",
      description: "Check the connection and try again.",
      tone: "error",
    });
    throw error;
  });

/** Whether this browser has uploads to show: the shell loads their badge and tray once it has. */
export const useUploadsSeen = create<{ seen: boolean }>()(() => ({ seen: hasStoredUploads() }));

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
