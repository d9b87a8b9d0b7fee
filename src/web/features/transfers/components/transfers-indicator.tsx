import { Suspense } from "react";
import { lazyWithRetry } from "@/web/components/lazy-with-retry";
import { useUploadsSeen } from "@/web/stores/uploads-seen-store";

const UploadsIndicator = lazyWithRetry(() => import("./uploads-indicator"));

/**
 * The shell's badge and tray of this browser's uploads. Their code (and the uploads store) loads
 * only once there is an upload: one started in this tab, or unfinished ones left by an earlier page.
 */
export function TransfersIndicator() {
  const seen = useUploadsSeen((s) => s.seen);
  if (!seen) return null;
  return (
    <Suspense fallback={null}>
      <UploadsIndicator />
    </Suspense>
  );
}
