import { Volume2Icon } from "lucide-react";
import { useMemo } from "react";
import type { MediaSources } from "../hooks/use-media-sources";
import { useSyncedPair } from "../hooks/use-synced-pair";
import { useViewerCommands } from "../hooks/use-viewer-commands";
import { useWaveform } from "../hooks/use-waveform";
import { PlayerControls } from "./player-controls";
import { ProxyNotice } from "./proxy-notice";
import { ScrubBar } from "./scrub-bar";
import { WaveformCanvas } from "./waveform-canvas";

const COLOURS = ["rgb(96 165 250)", "rgb(251 146 60 / 0.75)"] as const;

interface PairProps {
  sides: [MediaSources, MediaSources];
  names: [string, string];
  startMs?: number;
}

/** Which side is heard. */
function AudibleToggle({
  names,
  audible,
  onChange,
}: {
  names: [string, string];
  audible: 0 | 1;
  onChange(side: 0 | 1): void;
}) {
  return (
    <label className="flex items-center gap-1 text-xs">
      <Volume2Icon aria-hidden="true" className="size-4" />
      <span className="sr-only">Heard</span>
      <select
        value={audible}
        onChange={(e) => onChange(Number(e.target.value) as 0 | 1)}
        className="h-8 max-w-32 rounded-md border border-white/30 bg-black px-1 text-white"
      >
        <option value={0}>{names[0]}</option>
        <option value={1}>{names[1]}</option>
      </select>
    </label>
  );
}

/** The shared scrub bar and controls of a synced pair. */
function PairControls({
  pair,
  sides,
  names,
}: { pair: ReturnType<typeof useSyncedPair> } & Omit<PairProps, "startMs">) {
  const { clock } = pair.lead;
  const fps = sides[0].fps;
  return (
    <div className="grid gap-1 px-3 pb-3">
      <ScrubBar
        time={clock.time}
        duration={clock.duration}
        fps={fps}
        onSeek={pair.lead.seek}
        sheet={sides[0].sheet}
      />
      <PlayerControls
        paused={clock.paused}
        time={clock.time}
        duration={clock.duration}
        fps={fps}
        rate={clock.rate}
        onTogglePlay={pair.lead.toggle}
        disabled={!sides[0].playUrl}
        onStep={pair.lead.step}
        onRate={pair.lead.setRate}
      >
        <AudibleToggle names={names} audible={pair.audible} onChange={pair.setAudible} />
      </PlayerControls>
    </div>
  );
}

/** Two videos side by side (stacked on a phone) on one clock, one of them heard. */
export function CompareVideos({ sides, names, startMs }: PairProps) {
  const pair = useSyncedPair([sides[0].playUrl, sides[1].playUrl], sides[0].fps, startMs);
  useViewerCommands(pair.command);
  const shown = [
    { side: "left", s: sides[0], name: names[0], ref: pair.lead.ref },
    { side: "right", s: sides[1], name: names[1], ref: pair.follow.ref },
  ];
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="grid min-h-0 flex-1 grid-cols-1 gap-1 md:grid-cols-2">
        {shown.map(({ side, s, name, ref }) => (
          <figure key={side} className="flex min-h-0 flex-col items-center justify-center">
            {s.playUrl ? (
              // biome-ignore lint/a11y/useMediaCaption: review proxies carry no caption track.
              <video
                ref={ref}
                src={s.playUrl}
                preload="auto"
                playsInline
                aria-label={name}
                data-testid={`compare-video-${side}`}
                className="min-h-0 max-w-full flex-1"
              />
            ) : (
              <ProxyNotice
                entry={s.proxy}
                what="The 720p proxy"
                fallback="This side plays once it is ready."
              />
            )}
            <figcaption className="p-1 text-xs text-white/85">{name}</figcaption>
          </figure>
        ))}
      </div>
      <PairControls pair={pair} sides={sides} names={names} />
    </div>
  );
}

/** Two recordings as overlaid waveforms under one playhead, one of them heard. */
export function CompareAudio({ sides, names, startMs }: PairProps) {
  const pair = useSyncedPair([sides[0].playUrl, sides[1].playUrl], sides[0].fps, startMs);
  useViewerCommands(pair.command);
  const a = useWaveform(sides[0].waveformUrl);
  const b = useWaveform(sides[1].waveformUrl);
  const layers = useMemo(
    () =>
      [a.data, b.data].flatMap((peaks, i) =>
        peaks ? [{ peaks, colour: COLOURS[i] ?? COLOURS[0] }] : [],
      ),
    [a.data, b.data],
  );
  const { clock } = pair.lead;
  const shown = [
    { side: "left", url: sides[0].playUrl, name: names[0], ref: pair.lead.ref, colour: COLOURS[0] },
    {
      side: "right",
      url: sides[1].playUrl,
      name: names[1],
      ref: pair.follow.ref,
      colour: COLOURS[1],
    },
  ];
  return (
    <div className="flex min-h-0 flex-1 flex-col justify-center gap-3 p-3">
      {shown.map(({ side, url, ref }) =>
        url ? (
          // biome-ignore lint/a11y/useMediaCaption: audio under review has no caption track.
          <audio key={side} ref={ref} src={url} preload="auto" />
        ) : null,
      )}
      <ul className="flex flex-wrap gap-3 text-xs" aria-label="Waveforms">
        {shown.map(({ side, name, colour }) => (
          <li key={side} className="flex items-center gap-1">
            <span
              aria-hidden="true"
              className="inline-block size-3 rounded-sm"
              style={{ background: colour }}
            />
            {name}
          </li>
        ))}
      </ul>
      <WaveformCanvas
        layers={layers}
        time={clock.time}
        duration={clock.duration}
        onSeek={pair.lead.seek}
        label="Both waveforms"
      />
      <PairControls pair={pair} sides={sides} names={names} />
    </div>
  );
}
