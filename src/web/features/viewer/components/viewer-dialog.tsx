import { XIcon } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { useRef } from "react";
import { Button } from "@/web/components/ui/button";
import {
  handleViewerKey,
  type ViewerCommandHandler,
  ViewerCommandsContext,
} from "../hooks/use-viewer-commands";
import type { ViewerRequest } from "../viewer-store";
import { CompareView } from "./compare-view";

export { default as InlinePlayer } from "./inline-player";

import { MediaView } from "./media-view";
import { titleOf } from "./viewer-title";

/**
 * Loaded when first opened: the viewer over the whole screen, focus kept inside, Esc closes.
 * Its keys go to the view on screen (see viewer-keymap.ts).
 */
export default function ViewerDialog({
  request,
  onClose,
}: {
  request: ViewerRequest;
  onClose(): void;
}) {
  const commands = useRef<ViewerCommandHandler | null>(null);
  const { target, compareWith } = request;
  const title = compareWith ? `${titleOf(target)} and ${titleOf(compareWith)}` : titleOf(target);
  return (
    <DialogPrimitive.Root open onOpenChange={(open) => !open && onClose()}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          data-testid="viewer"
          className="fixed inset-0 z-50 flex flex-col bg-black text-white focus:outline-none"
          onKeyDown={(e) => handleViewerKey(e, commands)}
        >
          <header className="flex h-12 shrink-0 items-center gap-2 border-b border-white/15 px-3">
            <DialogPrimitive.Title className="min-w-0 flex-1 truncate text-sm font-medium">
              {compareWith ? `Compare: ${title}` : title}
            </DialogPrimitive.Title>
            <DialogPrimitive.Close asChild>
              <Button
                size="icon-sm"
                variant="ghost"
                className="text-white hover:bg-white/15 hover:text-white"
                aria-label="Close the viewer"
              >
                <XIcon aria-hidden="true" />
              </Button>
            </DialogPrimitive.Close>
          </header>
          <ViewerCommandsContext.Provider value={commands}>
            {compareWith ? (
              <CompareView left={target} right={compareWith} at={request.at} />
            ) : (
              <MediaView request={request} title={title} />
            )}
          </ViewerCommandsContext.Provider>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
