import { Toast as ToastPrimitive } from "radix-ui";
import { cn } from "../../lib/cn";
import { useToastStore } from "../../stores/toast-store";

/** Renders the toast store's queue; pages push with `toast({...})`. */
export default function Toaster() {
  const toasts = useToastStore((s) => s.toasts);
  const dismiss = useToastStore((s) => s.dismiss);
  return (
    <ToastPrimitive.Provider duration={6000}>
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          data-slot="toast"
          onOpenChange={(open) => !open && dismiss(t.id)}
          className={cn(
            "flex items-start gap-3 rounded-lg border bg-card p-4 shadow-lg",
            t.tone === "error" ? "border-destructive/50" : "border-border",
          )}
        >
          <div className="grid flex-1 gap-1">
            <ToastPrimitive.Title className="text-sm font-medium">{t.title}</ToastPrimitive.Title>
            {t.description && (
              <ToastPrimitive.Description className="text-sm text-muted-foreground">
                {t.description}
              </ToastPrimitive.Description>
            )}
          </div>
          {t.action && (
            <ToastPrimitive.Action
              altText={t.action.label}
              onClick={t.action.onClick}
              className="rounded-md border border-border px-3 py-1 text-sm font-medium hover:bg-accent"
            >
              {t.action.label}
            </ToastPrimitive.Action>
          )}
          <ToastPrimitive.Close
            aria-label="Dismiss"
            className="text-muted-foreground hover:text-foreground"
          >
            ×
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="fixed bottom-0 right-0 z-[100] flex w-96 max-w-full flex-col gap-2 p-4 outline-none" />
    </ToastPrimitive.Provider>
  );
}
