import { lazy, Suspense } from "react";
import { useToastStore } from "../../stores/toast-store";

const Toaster = lazy(() => import("./toaster"));

/** The toast machinery loads with the first toast, not with the page. */
export function LazyToaster() {
  const any = useToastStore((s) => s.toasts.length > 0);
  return any ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
