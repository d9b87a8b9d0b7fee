import { Maximize2Icon } from "lucide-react";
import { useRef } from "react";
import { Button } from "@/web/components/ui/button";
import {
  handleViewerKey,
  type ViewerCommandHandler,
  ViewerCommandsContext,
} from "../hooks/use-viewer-commands";
import { type StreamLink, StreamLinkContext } from "../stream-link";
import { useViewerStore, type ViewerRequest } from "../viewer-store";
import { MediaView } from "./media-view";
import { titleOf } from "./viewer-title";

export interface InlinePlayerProps {
  request: ViewerRequest;
  streamLink: StreamLink;
}

/** Where the inline view is: the media's time, or the PDF page it reported. */
function whereIs(box: HTMLElement | null, request: ViewerRequest): ViewerRequest["at"] {
  const media = box?.querySelector<HTMLMediaElement>("video, audio");
  if (media) {
    media.pause();
    return { timeMs: Math.round(media.currentTime * 1000) };
  }
  const position = useViewerStore.getState().position;
  if (position?.path === request.target.path && position.page !== null)
    return { page: position.page };
  return request.at;
}

/**
 * The viewer's views in a box of a page (the review inspector): the same player, scrub bar,
 * waveform and pages as the full viewer. Its keys work while focus is inside it and are taken
 * there (the page's own keymap reads only keys left alone); Expand opens the full viewer at the
 * same place.
 */
export default function InlinePlayer({ request, streamLink }: InlinePlayerProps) {
  const commands = useRef<ViewerCommandHandler | null>(null);
  const box = useRef<HTMLElement>(null);
  const title = titleOf(request.target);
  const expand = () =>
    useViewerStore.getState().show({ ...request, at: whereIs(box.current, request) });
  return (
    <StreamLinkContext.Provider value={streamLink}>
      <ViewerCommandsContext.Provider value={commands}>
        <section
          ref={box}
          aria-label={`Preview of ${title}`}
          data-testid="inline-player"
          className="flex h-72 flex-col overflow-hidden rounded-md border border-border bg-black text-white"
          onKeyDown={(e) => handleViewerKey(e, commands)}
        >
          <header className="flex h-9 shrink-0 items-center gap-2 border-b border-white/15 pl-3 pr-1">
            <p className="min-w-0 flex-1 truncate text-xs font-medium">{title}</p>
            <Button
              size="icon-sm"
              variant="ghost"
              className="text-white hover:bg-white/15 hover:text-white"
              aria-label={`Expand ${title} in the viewer`}
              title="Expand"
              onClick={expand}
            >
              <Maximize2Icon aria-hidden="true" />
            </Button>
          </header>
          {/* Keyed by file: a new file starts its own player, not the last one's time. */}
          <MediaView key={request.target.path} request={request} title={title} />
        </section>
      </ViewerCommandsContext.Provider>
    </StreamLinkContext.Provider>
  );
}
