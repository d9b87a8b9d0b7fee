import { formatDateTime } from "@/browser/format";
import type { Event } from "@/contract/events";
import { CopyButton } from "@/web/components/copy-button";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/web/components/ui/sheet";
import { eventPaths } from "@/web/features/events/event-summary";

export function EventDrawer({ event, onClose }: { event: Event; onClose(): void }) {
  const json = JSON.stringify(event, null, 2);
  const paths = eventPaths(event);
  return (
    <Sheet open onOpenChange={(open) => !open && onClose()}>
      <SheetContent>
        <SheetTitle className="break-all font-mono">{event.type}</SheetTitle>
        <SheetDescription>
          {formatDateTime(event.createdAt)} ·{" "}
          <span className="break-all font-mono">{event.id}</span>
        </SheetDescription>
        {paths.length > 0 && (
          <section aria-labelledby="event-paths" className="grid gap-2">
            <h3 id="event-paths" className="text-sm font-medium">
              {paths.length === 1 ? "Path" : `Paths (${paths.length})`}
            </h3>
            <ul className="grid max-h-60 gap-1 overflow-y-auto rounded-md border border-border p-2 text-sm">
              {paths.map(({ label, path }, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a request may name one path twice
                <li key={i} className="flex gap-2">
                  {label && <span className="w-20 shrink-0 text-muted-foreground">{label}</span>}
                  <span className="min-w-0 break-all font-mono">{path}</span>
                </li>
              ))}
            </ul>
          </section>
        )}
        <div>
          <CopyButton text={json} label="Copy the event as JSON" />
        </div>
        <pre
          // biome-ignore lint/a11y/noNoninteractiveTabindex: scrollable code must be reachable by keyboard
          tabIndex={0}
          className="overflow-auto rounded-md border border-border bg-muted p-3 font-mono text-xs"
        >
          {json}
        </pre>
      </SheetContent>
    </Sheet>
  );
}
