import { type PointerEvent, useRef, useState, type WheelEvent } from "react";
import { usePreviewUrl } from "@/web/lib/file-preview";
import type { MediaSources } from "../hooks/use-media-sources";
import { useViewerCommands } from "../hooks/use-viewer-commands";
import { fitView, panBy, type View, zoomAt } from "../state/zoom";
import type { ViewerTarget } from "../viewer-store";

const PAN_STEP = 40;
const ZOOM_STEP = 1.25;

/**
 * The image to show: the original (a live file), a kept version's page image, and the
 * thumbnail while the full image loads.
 */
export function useImageUrls(target: ViewerTarget, sources: MediaSources) {
  const page = sources.pages.find((p) => p.page === 0);
  const full = sources.originalUrl ?? (page?.status === "ready" ? page.url : null);
  const thumbnail = usePreviewUrl(target.workspaceId, target.path, !target.version);
  return { full, thumbnail: thumbnail.url };
}

/** An image to zoom (wheel, + and -, 0 to fit) and pan (drag, arrows). */
export function ImageView({
  target,
  sources,
  title,
}: {
  target: ViewerTarget;
  sources: MediaSources;
  title: string;
}) {
  const { full, thumbnail } = useImageUrls(target, sources);
  const [loaded, setLoaded] = useState(false);
  const [view, setView] = useState<View>(fitView);
  const drag = useRef<{ x: number; y: number } | null>(null);
  useViewerCommands((c) => {
    const next: Record<string, () => View> = {
      zoomIn: () => zoomAt(view, ZOOM_STEP),
      zoomOut: () => zoomAt(view, 1 / ZOOM_STEP),
      fit: () => fitView,
      back: () => panBy(view, PAN_STEP, 0),
      forward: () => panBy(view, -PAN_STEP, 0),
      up: () => panBy(view, 0, PAN_STEP),
      down: () => panBy(view, 0, -PAN_STEP),
    };
    if (!next[c]) return false;
    setView(next[c]());
    return true;
  });
  const onWheel = (e: WheelEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    const px = e.clientX - rect.left - rect.width / 2;
    const py = e.clientY - rect.top - rect.height / 2;
    setView((v) => zoomAt(v, e.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP, px, py));
  };
  const onPointerMove = (e: PointerEvent) => {
    if (!drag.current) return;
    const { x, y } = drag.current;
    drag.current = { x: e.clientX, y: e.clientY };
    setView((v) => panBy(v, e.clientX - x, e.clientY - y));
  };
  const src = loaded || !thumbnail ? full : thumbnail;
  return (
    <div
      className="relative flex min-h-0 flex-1 cursor-grab touch-none items-center justify-center overflow-hidden bg-neutral-900"
      onWheel={onWheel}
      onPointerDown={(e) => {
        drag.current = { x: e.clientX, y: e.clientY };
        e.currentTarget.setPointerCapture(e.pointerId);
      }}
      onPointerMove={onPointerMove}
      onPointerUp={() => {
        drag.current = null;
      }}
    >
      {src ? (
        <img
          src={src}
          alt={title}
          draggable={false}
          data-testid="viewer-image"
          className="max-h-full max-w-full select-none object-contain"
          style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.zoom})` }}
        />
      ) : (
        <p className="text-sm text-white/85">
          {sources.status.isPending || sources.originalPending
            ? "Loading…"
            : "This image cannot be shown here."}
        </p>
      )}
      {/* The full image loads out of sight while the thumbnail shows. */}
      {full && !loaded && thumbnail && (
        <img src={full} alt="" hidden onLoad={() => setLoaded(true)} />
      )}
      <output className="absolute bottom-2 left-2 rounded bg-black/60 px-2 py-0.5 text-xs text-white">
        {Math.round(view.zoom * 100)} %
      </output>
    </div>
  );
}
