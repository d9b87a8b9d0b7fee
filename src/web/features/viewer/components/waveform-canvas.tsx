import { type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from "react";
import type { WaveformPeaks } from "@/contract/media-rules";
import { timeAtPointer } from "../state/media-time";
import { columnPeaks } from "../state/waveform-columns";

/** Each waveform drawn over the others, in its own colour (compare overlays two). */
export interface WaveformLayer {
  peaks: WaveformPeaks;
  colour: string;
}

function draw(canvas: HTMLCanvasElement, layers: WaveformLayer[], width: number, height: number) {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  ctx.scale(ratio, ratio);
  ctx.clearRect(0, 0, width, height);
  const mid = height / 2;
  const scale = mid / 128;
  for (const layer of layers) {
    const { min, max } = columnPeaks(layer.peaks, width);
    ctx.fillStyle = layer.colour;
    for (let x = 0; x < min.length; x++) {
      const top = mid - (max[x] ?? 0) * scale;
      ctx.fillRect(x, top, 1, Math.max(1, mid - (min[x] ?? 0) * scale - top));
    }
  }
}

/**
 * Waveforms at the width they are given (min and max per pixel column), a playhead, click or
 * drag to seek, arrows for a second.
 */
export function WaveformCanvas({
  layers,
  time,
  duration,
  onSeek,
  label,
}: {
  layers: WaveformLayer[];
  time: number;
  duration: number;
  onSeek(seconds: number): void;
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      const rect = entry?.contentRect;
      if (rect) setSize({ width: Math.floor(rect.width), height: Math.floor(rect.height) });
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    if (canvas.current && size.width > 0) draw(canvas.current, layers, size.width, size.height);
  }, [layers, size]);
  const dragging = useRef(false);
  const seekAt = (e: PointerEvent<HTMLDivElement>) =>
    onSeek(timeAtPointer(e.clientX, e.currentTarget.getBoundingClientRect(), duration));
  const onKeyDown = (e: KeyboardEvent) => {
    const to = e.key === "ArrowLeft" ? time - 1 : e.key === "ArrowRight" ? time + 1 : null;
    if (to === null) return;
    e.preventDefault();
    e.stopPropagation();
    onSeek(Math.max(0, Math.min(duration, to)));
  };
  const percent = duration > 0 ? (time / duration) * 100 : 0;
  return (
    <div
      ref={box}
      role="slider"
      tabIndex={0}
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={Math.round(duration)}
      aria-valuenow={Math.round(time)}
      className="relative h-40 w-full cursor-pointer touch-none rounded-md bg-white/5 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring sm:h-56"
      onPointerDown={(e) => {
        dragging.current = true;
        e.currentTarget.setPointerCapture(e.pointerId);
        seekAt(e);
      }}
      onPointerMove={(e) => dragging.current && seekAt(e)}
      onPointerUp={() => {
        dragging.current = false;
      }}
      onKeyDown={onKeyDown}
    >
      <canvas ref={canvas} data-testid="waveform" className="absolute inset-0 size-full" />
      <div
        aria-hidden="true"
        data-testid="playhead"
        className="absolute inset-y-0 w-0.5 bg-white"
        style={{ left: `${percent}%` }}
      />
    </div>
  );
}
