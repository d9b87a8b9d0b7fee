import { FolderPlusIcon } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Button } from "@/web/components/ui/button";

const NewFolderDialog = lazy(() => import("./new-folder-dialog"));

export function NewFolderButton({ folder }: { folder: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <FolderPlusIcon aria-hidden="true" />
        New folder
      </Button>
      {open && (
        <Suspense fallback={null}>
          <NewFolderDialog folder={folder} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
