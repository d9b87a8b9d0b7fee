import { useQueryClient } from "@tanstack/react-query";
import { describeError } from "@/web/lib/api-client";
import { toast } from "@/web/stores/toast-store";
import type { PickedFile } from "./transfer-model";

const uploadEngine = () => import("./engine/upload-engine");
type Engine = Awaited<ReturnType<typeof uploadEngine>>;

/** Pause, resume and cancel of this browser's uploads, each loading the engine if need be. */
export function useUploadActions() {
  const queryClient = useQueryClient();
  const call = (what: string, act: (engine: Engine) => unknown) =>
    void uploadEngine()
      .then(act)
      .catch((error: unknown) =>
        toast({ title: `Could not ${what}`, description: describeError(error), tone: "error" }),
      );
  return {
    pause: (id: string) => call("pause the upload", (e) => e.pause(queryClient, id)),
    resume: (id: string) => call("resume the upload", (e) => e.resume(queryClient, id)),
    cancel: (id: string) => call("cancel the upload", (e) => e.cancel(queryClient, id)),
    pauseFile: (id: string, i: number) =>
      call("pause the file", (e) => e.pauseFile(queryClient, id, i)),
    resumeFile: (id: string, i: number) =>
      call("resume the file", (e) => e.resumeFile(queryClient, id, i)),
    cancelFile: (id: string, i: number) =>
      call("cancel the file", (e) => e.cancelFile(queryClient, id, i)),
    reattach: (id: string, picked: PickedFile[]) =>
      call("resume the upload", (e) => {
        const { matched, missing } = e.reattachFiles(queryClient, id, picked);
        if (matched === 0)
          toast({
            title: "These are not the files of this upload",
            description: "Choose the same files or folder, unchanged since the upload began.",
            tone: "error",
          });
        else if (missing > 0)
          toast({
            title: `${missing} file${missing === 1 ? "" : "s"} still missing`,
            description: "Choose the rest to upload them too.",
          });
      }),
  };
}
