import { XIcon } from "lucide-react";
import { formatCount } from "@/browser/format";
import { Button } from "@/web/components/ui/button";
import { filesAriaKeys } from "@/web/features/files/keymap";
import { cn } from "@/web/lib/cn";
import type { FileAction } from "./file-actions";

/**
 * "3 selected" and what can be done with them, floating over the bottom of the list while
 * anything is selected: floating, so that selecting never moves the rows under the pointer.
 */
export function SelectionBar({
  count,
  actions,
  onClear,
}: {
  count: number;
  actions: FileAction[];
  onClear(): void;
}) {
  return (
    <section
      aria-label="Selection"
      className="absolute bottom-4 left-1/2 z-40 flex w-max max-w-[calc(100%-2rem)] -translate-x-1/2 flex-wrap items-center gap-1 rounded-lg border border-border bg-card px-3 py-1.5 shadow-lg max-sm:gap-0 max-sm:px-1.5"
    >
      <p className="mr-2 text-sm font-medium max-sm:mr-1" aria-live="polite">
        {formatCount(count)} selected
      </p>
      {actions.map((action) => (
        <Button
          key={action.id}
          size="sm"
          variant="ghost"
          onClick={action.run}
          // Narrow enough on a phone for a single item's nine actions and Clear on one line.
          className={cn("max-sm:px-1", action.destructive && "text-destructive-text")}
          aria-keyshortcuts={action.keys && filesAriaKeys(action.keys)}
          title={action.label}
        >
          <action.icon aria-hidden="true" />
          {/* A phone's width holds the icons on one line, not the words. */}
          <span className="sr-only sm:not-sr-only">{action.label}</span>
        </Button>
      ))}
      <Button
        size="icon-sm"
        variant="ghost"
        aria-label="Clear selection"
        title="Clear selection (Esc)"
        className="max-sm:w-7"
        onClick={onClear}
      >
        <XIcon aria-hidden="true" />
      </Button>
    </section>
  );
}
