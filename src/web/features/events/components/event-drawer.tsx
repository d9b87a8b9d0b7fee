import type { Event } from "@/contract/events";
import { CopyButton } from "@/web/components/copy-button";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/web/components/ui/sheet";
import { formatDateTime } from "@/web/lib/format";

export function EventDrawer({ event, onClose }: { event: Event; onClose(): void }) {
  const json = JSON.stringify(event, null, 2);
  return (
    <Sheet open onOpenChange={(open) => !open && onClose()}>
      <SheetContent>
        <SheetTitle className="font-mono">{event.type}</SheetTitle>
        <SheetDescription>
          {formatDateTime(event.createdAt)} · <span className="font-mono">{event.id}</span>
        </SheetDescription>
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
