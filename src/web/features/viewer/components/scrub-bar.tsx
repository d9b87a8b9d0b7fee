import { type KeyboardEvent, type PointerEvent, useRef, useState } from "react";
import type { ContactSheetLayout } from "@/contract/media";
import { timecode } from "@/contract/media-rules";
import { cn } from "@/web/lib/cn";
import { timeAtPointer } from "../state/media-time";
import { tileAt } from "../state/sheet-tile";
import type { ViewerMarker } from "../viewer-store";

export interface ScrubBarProps {
  time: number;
  duration: number;
  fps: number;
  onSeek(seconds: number): void;
  /** The contact sheet: a tile of the frame under the pointer while hovering or dragging. */
  sheet?: { url: string; layout: ContactSheetLayout } | null;
  markers?: ViewerMarker[];
  className?: string;
}

/** A tile of the contact sheet above the pointer, shown with CSS background-position. */
function TilePreview({
  sheet,
  at,
  x,
}: {
  sheet: NonNullable<ScrubBarProps["sheet"]>;
  at: number;
  x: number;
}) {
  const tile = tileAt(sheet.layout, at * 1000);
  const { tileWidth: w, tileHeight: h } = sheet.layout;
  return (
    <div
      aria-hidden="true"
      data-testid="scrub-tile"
      className="pointer-events-none absolute bottom-6 -translate-x-1/2 rounded border border-border bg-black shadow-lg"
      style={{
        left: x,
        width: w,
        height: h,
        backgroundImage: `url("${sheet.url}")`,
        backgroundPosition: `${tile.x}px ${tile.y}px`,
      }}
    />
  );
}

/**
 * The time line: click or drag to seek, arrows for a second (Shift: ten), Home and End; the
 * notes' markers sit on it and jump to their time when clicked.
 */
export function ScrubBar({
  time,
  duration,
  fps,
  onSeek,
  sheet,
  markers,
  className,
}: ScrubBarProps) {
  const [hover, setHover] = useState<{ x: number; at: number } | null>(null);
  const dragging = useRef(false);
  const at = (e: PointerEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - rect.left, at: timeAtPointer(e.clientX, rect, duration) };
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    dragging.current = true;
    e.currentTarget.setPointerCapture(e.pointerId);
    onSeek(at(e).at);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const p = at(e);
    setHover(p);
    if (dragging.current) onSeek(p.at);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const step = e.shiftKey ? 10 : 1;
    const to =
      e.key === "ArrowLeft"
        ? time - step
        : e.key === "ArrowRight"
          ? time + step
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? duration
              : null;
    if (to === null) return;
    e.preventDefault();
    e.stopPropagation();
    onSeek(Math.max(0, Math.min(duration, to)));
  };
  const percent = duration > 0 ? (time / duration) * 100 : 0;
  const timed = (markers ?? []).flatMap((m) => (m.timeMs === null ? [] : [{ ...m, ms: m.timeMs }]));
  return (
    <div className={cn("relative h-8 touch-none select-none", className)}>
      <div
        role="slider"
        tabIndex={0}
        aria-label="Position"
        aria-valuemin={0}
        aria-valuemax={Math.round(duration)}
        aria-valuenow={Math.round(time)}
        aria-valuetext={timecode(time * 1000, fps)}
        data-testid="scrub-bar"
        className="absolute inset-x-0 top-2 h-4 cursor-pointer rounded-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => {
          dragging.current = false;
        }}
        onPointerLeave={() => !dragging.current && setHover(null)}
        onKeyDown={onKeyDown}
      >
        <div className="absolute inset-x-0 top-1.5 h-1 rounded-full bg-white/30">
          <div className="h-full rounded-full bg-primary" style={{ width: `${percent}%` }} />
        </div>
        <div
          className="absolute top-0 size-4 -translate-x-1/2 rounded-full border-2 border-white bg-primary"
          style={{ left: `${percent}%` }}
        />
      </div>
      {timed.map((m) => (
        <button
          key={m.id}
          type="button"
          title={m.label}
          aria-label={`Go to the note at ${timecode(m.ms, fps)}: ${m.label}`}
          className="absolute -top-1 size-3 -translate-x-1/2 rotate-45 rounded-sm border border-black/40 bg-amber-400 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          style={{ left: `${duration > 0 ? Math.min(100, (m.ms / 1000 / duration) * 100) : 0}%` }}
          onClick={() => onSeek(m.ms / 1000)}
        />
      ))}
      {hover && sheet && duration > 0 && <TilePreview sheet={sheet} at={hover.at} x={hover.x} />}
    </div>
  );
}
