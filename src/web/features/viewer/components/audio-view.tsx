import { useMemo } from "react";
import type { MediaSources } from "../hooks/use-media-sources";
import { usePlayer } from "../hooks/use-player";
import { useReportPosition } from "../hooks/use-report-position";
import { useViewerCommands } from "../hooks/use-viewer-commands";
import { useWaveform } from "../hooks/use-waveform";
import type { ViewerMarker, ViewerTarget } from "../viewer-store";
import { PlayerControls } from "./player-controls";
import { ProxyNotice } from "./proxy-notice";
import { ScrubBar } from "./scrub-bar";
import { WaveformCanvas } from "./waveform-canvas";

/** Audio: its waveform with a playhead (click to seek), the notes' markers and the controls. */
export function AudioView({
  sources,
  title,
  startMs,
  markers,
  target,
}: {
  sources: MediaSources;
  title: string;
  startMs?: number;
  markers?: ViewerMarker[];
  /** The file shown: where the view is in it is reported for note forms. */
  target?: ViewerTarget;
}) {
  const player = usePlayer(sources.playUrl, sources.fps, startMs);
  useViewerCommands(player.command);
  const waveform = useWaveform(sources.waveformUrl);
  const layers = useMemo(
    () => (waveform.data ? [{ peaks: waveform.data, colour: "rgb(96 165 250)" }] : []),
    [waveform.data],
  );
  const { clock } = player;
  useReportPosition(
    target,
    { timeMs: Math.round(clock.time * 1000), page: null, fps: sources.fps },
    clock.paused,
  );
  const duration = clock.duration || (sources.durationMs ?? 0) / 1000;
  return (
    <div className="flex min-h-0 flex-1 flex-col justify-center gap-3 bg-black p-3 sm:p-6">
      {sources.playUrl && (
        // biome-ignore lint/a11y/useMediaCaption: audio under review has no caption track.
        <audio
          ref={player.ref}
          src={sources.playUrl}
          preload="auto"
          aria-label={title}
          data-testid="viewer-audio"
        />
      )}
      {!sources.status.isPending && (
        <>
          <ProxyNotice entry={sources.waveform} what="The waveform" fallback="" />
          {!sources.playUrl && (
            <ProxyNotice
              entry={sources.proxy}
              what="The audio proxy"
              fallback="It plays once it is ready."
            />
          )}
        </>
      )}
      <WaveformCanvas
        layers={layers}
        time={clock.time}
        duration={duration}
        onSeek={player.seek}
        label={`Waveform of ${title}`}
      />
      <ScrubBar
        time={clock.time}
        duration={duration}
        fps={sources.fps}
        onSeek={player.seek}
        markers={markers}
      />
      <PlayerControls
        paused={clock.paused}
        time={clock.time}
        duration={duration}
        fps={sources.fps}
        rate={clock.rate}
        onTogglePlay={player.toggle}
        onRate={player.setRate}
      />
    </div>
  );
}
