import { useRef } from "react";
import { type PlayerViewProps, useReportedPlayer } from "../hooks/use-player";
import { useViewerCommands } from "../hooks/use-viewer-commands";
import { PlayerControls } from "./player-controls";
import { ProxyNotice } from "./proxy-notice";
import { ScrubBar } from "./scrub-bar";

/** Asks for full screen; a browser that refuses (an iframe without the right) changes nothing. */
export const fullScreen = (el: HTMLElement | null) => {
  if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
  else void el?.requestFullscreen?.().catch(() => {});
};

/** A video on its 720p proxy (the original while it renders), with the viewer's controls. */
export function VideoView(props: PlayerViewProps) {
  const { sources, title, markers } = props;
  const box = useRef<HTMLDivElement>(null);
  const player = useReportedPlayer(props);
  useViewerCommands((c) => {
    if (c === "fullScreen") {
      fullScreen(box.current);
      return true;
    }
    return player.command(c);
  });
  const { clock } = player;
  const waiting = sources.status.isPending || sources.originalPending;
  return (
    <div ref={box} className="flex min-h-0 flex-1 flex-col bg-black">
      <div className="relative flex min-h-0 flex-1 items-center justify-center">
        {sources.playUrl ? (
          // biome-ignore lint/a11y/useMediaCaption: review proxies carry no caption track.
          <video
            ref={player.ref}
            src={sources.playUrl}
            preload="auto"
            playsInline
            aria-label={title}
            data-testid="viewer-video"
            className="max-h-full max-w-full"
            onClick={player.toggle}
          />
        ) : (
          <p className="p-6 text-center text-sm text-white/85">
            {waiting ? "Loading…" : "This video plays once its proxy is ready."}
          </p>
        )}
      </div>
      <div className="grid gap-1 px-3 pb-3 pt-1">
        {!waiting && (
          <ProxyNotice
            entry={sources.proxy}
            what="The 720p proxy"
            fallback={
              sources.originalUrl
                ? "Playing the original meanwhile."
                : "The original cannot play in a browser."
            }
          />
        )}
        <ScrubBar
          time={clock.time}
          duration={clock.duration}
          fps={sources.fps}
          onSeek={player.seek}
          sheet={sources.sheet}
          markers={markers}
        />
        <PlayerControls
          paused={clock.paused}
          time={clock.time}
          duration={clock.duration}
          fps={sources.fps}
          rate={clock.rate}
          onTogglePlay={player.toggle}
          disabled={!sources.playUrl}
          onStep={player.step}
          onRate={player.setRate}
          onFullScreen={() => fullScreen(box.current)}
        />
      </div>
    </div>
  );
}
