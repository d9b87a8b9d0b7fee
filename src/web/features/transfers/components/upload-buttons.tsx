import { useQueryClient } from "@tanstack/react-query";
import { FolderUpIcon, UploadIcon } from "lucide-react";
import { Button } from "@/web/components/ui/button";
import { useWorkspaceId } from "@/web/stores/session-store";
import { uploadPicked } from "../engine-loader";
import { PickFiles } from "./pick-files";

/** Files' "Upload" and "Upload a folder": what is picked goes into `folder`. */
export function UploadButtons({ folder }: { folder: string }) {
  const queryClient = useQueryClient();
  const workspaceId = useWorkspaceId();
  return (
    <PickFiles
      what={`to upload to ${folder || "the workspace root"}`}
      onPicked={(picked) => void uploadPicked({ queryClient, workspaceId, folder, picked })}
    >
      {(open) => (
        <>
          <Button
            variant="outline"
            onClick={open.files}
            title="Upload files (or drop files and folders on the list)"
          >
            <UploadIcon aria-hidden="true" />
            {/* A phone's toolbar holds the icon; the button's name stays "Upload". */}
            <span className="max-sm:sr-only">Upload</span>
          </Button>
          <Button
            size="icon"
            variant="outline"
            aria-label="Upload a folder"
            title="Upload a folder"
            onClick={open.folder}
          >
            <FolderUpIcon aria-hidden="true" />
          </Button>
        </>
      )}
    </PickFiles>
  );
}
