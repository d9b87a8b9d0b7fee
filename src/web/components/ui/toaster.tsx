import { XIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { cn } from "@/web/lib/cn";
import { type Toast, useToastStore } from "@/web/stores/toast-store";

const DURATION_MS = 6000;

/**
 * The toast queue as a live region. Deliberately not a dismissable layer (as Radix Toast is):
 * a toast that appears while a dialog is open must not take the dialog's Escape key.
 * The region is always mounted so screen readers announce what is added to it.
 */
export function Toaster() {
  const toasts = useToastStore((s) => s.toasts);
  return (
    <section
      aria-label="Notifications"
      aria-live="polite"
      className="pointer-events-none fixed right-0 bottom-0 z-[100] flex w-96 max-w-full flex-col gap-2 p-4"
    >
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </section>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useToastStore((s) => s.dismiss);
  // Paused while pointed at or focused, so a person reaching for Undo does not lose it.
  const [paused, setPaused] = useState(false);
  const remaining = useRef(DURATION_MS);
  useEffect(() => {
    if (paused) return;
    const started = Date.now();
    const timer = setTimeout(() => dismiss(toast.id), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - started;
    };
  }, [paused, dismiss, toast.id]);

  return (
    <div
      data-slot="toast"
      role="status"
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.stopPropagation();
          dismiss(toast.id);
        }
      }}
      className={cn(
        "pointer-events-auto flex items-start gap-3 rounded-lg border bg-card p-4 shadow-lg",
        toast.tone === "error" ? "border-destructive/50" : "border-border",
      )}
    >
      <div className="grid flex-1 gap-1">
        <p className="text-sm font-medium">{toast.title}</p>
        {toast.description && <p className="text-sm text-muted-foreground">{toast.description}</p>}
      </div>
      {toast.action && (
        <button
          type="button"
          onClick={() => {
            toast.action?.onClick();
            dismiss(toast.id);
          }}
          className="rounded-md border border-border px-3 py-1 text-sm font-medium hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
        >
          {toast.action.label}
        </button>
      )}
      <button
        type="button"
        aria-label="Dismiss"
        onClick={() => dismiss(toast.id)}
        className="rounded text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
      >
        <XIcon className="size-4" aria-hidden />
      </button>
    </div>
  );
}
