import { FolderPlusIcon } from "lucide-react";
import { Suspense, useState } from "react";
import { lazyWithRetry } from "@/web/components/lazy-with-retry";
import { Button } from "@/web/components/ui/button";

const NewFolderDialog = lazyWithRetry(() => import("./new-folder-dialog"));

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
