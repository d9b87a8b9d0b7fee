import { useMemo } from "react";
import { type PlayerViewProps, useReportedPlayer } from "../hooks/use-player";
import { useViewerCommands } from "../hooks/use-viewer-commands";
import { useWaveform } from "../hooks/use-waveform";
import { PlayerControls } from "./player-controls";
import { ProxyNotice } from "./proxy-notice";
import { ScrubBar } from "./scrub-bar";
import { WaveformCanvas } from "./waveform-canvas";

/** Audio: its waveform with a playhead (click to seek), the notes' markers and the controls. */
export function AudioView(props: PlayerViewProps) {
  const { sources, title, markers } = props;
  const player = useReportedPlayer(props);
  useViewerCommands(player.command);
  const waveform = useWaveform(sources.waveformUrl);
  const layers = useMemo(
    () => (waveform.data ? [{ peaks: waveform.data, colour: "rgb(96 165 250)" }] : []),
    [waveform.data],
  );
  const { clock } = player;
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
          {!sources.playUrl && !sources.originalPending && (
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
        disabled={!sources.playUrl}
        onRate={player.setRate}
      />
    </div>
  );
}
