import { Suspense } from "react";
import { lazyWithRetry } from "@/web/components/lazy-with-retry";
import { type StreamLink, StreamLinkContext } from "./stream-link";
import { useViewerStore } from "./viewer-store";

const ViewerDialog = lazyWithRetry(() => import("./components/viewer-dialog"));

/**
 * Mounted once in the app's shell: shows what `useViewerStore.show` asked for. The viewer's code
 * loads the first time something is shown, never with a page.
 */
export function ViewerHost({ streamLink }: { streamLink: StreamLink }) {
  const open = useViewerStore((s) => s.open);
  const close = useViewerStore((s) => s.close);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <StreamLinkContext.Provider value={streamLink}>
        <ViewerDialog request={open} onClose={close} />
      </StreamLinkContext.Provider>
    </Suspense>
  );
}
