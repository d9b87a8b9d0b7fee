import { MaximizeIcon, PauseIcon, PlayIcon, StepBackIcon, StepForwardIcon } from "lucide-react";
import type { ReactNode } from "react";
import { timecode } from "@/contract/media-rules";
import { Button } from "@/web/components/ui/button";
import { playbackRates } from "../state/media-time";

const onDark = "text-white hover:bg-white/15 hover:text-white";

export interface PlayerControlsProps {
  paused: boolean;
  time: number;
  duration: number;
  fps: number;
  rate: number;
  onTogglePlay(): void;
  onStep?(direction: -1 | 1): void;
  onRate(rate: number): void;
  onFullScreen?(): void;
  /** Nothing to play yet (its address is on its way): a press now would be lost. */
  disabled?: boolean;
  /** More controls at the end (compare's "which side is heard"). */
  children?: ReactNode;
}

/** Play, frame steps, timecode, speed and full screen, in one row that wraps on a phone. */
export function PlayerControls(p: PlayerControlsProps) {
  return (
    <div className="flex flex-wrap items-center gap-1 text-sm text-white sm:gap-2">
      <Button
        size="icon-sm"
        variant="ghost"
        className={onDark}
        aria-label={p.paused ? "Play" : "Pause"}
        disabled={p.disabled}
        onClick={p.onTogglePlay}
      >
        {p.paused ? <PlayIcon aria-hidden="true" /> : <PauseIcon aria-hidden="true" />}
      </Button>
      {p.onStep && (
        <>
          <Button
            size="icon-sm"
            variant="ghost"
            className={onDark}
            aria-label="Previous frame"
            title="Previous frame (,)"
            disabled={p.disabled}
            onClick={() => p.onStep?.(-1)}
          >
            <StepBackIcon aria-hidden="true" />
          </Button>
          <Button
            size="icon-sm"
            variant="ghost"
            className={onDark}
            aria-label="Next frame"
            title="Next frame (.)"
            disabled={p.disabled}
            onClick={() => p.onStep?.(1)}
          >
            <StepForwardIcon aria-hidden="true" />
          </Button>
        </>
      )}
      <output
        className="font-mono text-xs tabular-nums"
        aria-label="Timecode"
        data-testid="timecode"
      >
        {timecode(p.time * 1000, p.fps)}
        <span className="text-white/70"> / {timecode(p.duration * 1000, p.fps)}</span>
      </output>
      <div className="ml-auto flex items-center gap-1">
        {p.children}
        <label className="flex items-center gap-1 text-xs">
          <span className="sr-only sm:not-sr-only">Speed</span>
          <select
            value={p.rate}
            disabled={p.disabled}
            onChange={(e) => p.onRate(Number(e.target.value))}
            className="h-8 rounded-md border border-white/30 bg-black px-1 text-white"
          >
            {playbackRates.map((r) => (
              <option key={r} value={r}>
                {r}×
              </option>
            ))}
          </select>
        </label>
        {p.onFullScreen && (
          <Button
            size="icon-sm"
            variant="ghost"
            className={onDark}
            aria-label="Full screen"
            title="Full screen (f)"
            onClick={p.onFullScreen}
          >
            <MaximizeIcon aria-hidden="true" />
          </Button>
        )}
      </div>
    </div>
  );
}
