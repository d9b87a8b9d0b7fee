import { useLayoutEffect, useRef } from "react";
import { clampTime, stepFrame } from "../state/media-time";
import type { ViewerCommand } from "../viewer-keymap";
import type { ViewerMarker, ViewerTarget } from "../viewer-store";
import { togglePlay, useMediaClock } from "./use-media-clock";
import type { MediaSources } from "./use-media-sources";
import { useReportPosition } from "./use-report-position";

/** Seconds a j/l or arrow press moves. */
const SEEK_STEP = 5;

const hasMetadata = (media: HTMLMediaElement) => media.readyState >= HTMLMediaElement.HAVE_METADATA;

/**
 * A media element the viewer plays: its clock, the actions of its controls and keys, the start
 * at `startMs`, and the position kept when the source changes (the original, then the proxy).
 */
export function usePlayer(src: string | null, fps: number, startMs: number | undefined) {
  const ref = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const clock = useMediaClock(ref, src);
  // Where the media is, so the next source (the proxy after the original) starts there.
  const position = useRef<{ time: number; playing: boolean } | null>(
    startMs !== undefined ? { time: startMs / 1000, playing: false } : null,
  );
  // A layout effect: it runs in the task that set the new source, so the media's own events,
  // which are later tasks, cannot come first. A passive effect ran after them on a busy machine,
  // and a proxy read from the cache had its metadata before the listener: Play was lost.
  useLayoutEffect(() => {
    const media = ref.current;
    if (!media || !src) return;
    // Playing goes on at once, so the element itself says it plays and a Pause pressed while
    // the new source loads pauses it. The time can only be set once its metadata is known.
    if (position.current?.playing) void media.play().catch(() => {});
    const onLoaded = () => {
      if (position.current) media.currentTime = position.current.time;
    };
    // A source still loading reports time 0, which is not where it was: keep the time, follow
    // Play and Pause.
    const remember = (event: Event) => {
      if (hasMetadata(media))
        position.current = { time: media.currentTime, playing: !media.paused };
      else if (event.type === "play" || event.type === "pause")
        position.current = { time: position.current?.time ?? 0, playing: event.type === "play" };
    };
    const events = ["timeupdate", "play", "pause", "seeked"];
    if (hasMetadata(media)) onLoaded();
    else media.addEventListener("loadedmetadata", onLoaded, { once: true });
    for (const name of events) media.addEventListener(name, remember);
    return () => {
      media.removeEventListener("loadedmetadata", onLoaded);
      for (const name of events) media.removeEventListener(name, remember);
    };
  }, [src]);

  // Before the source's metadata a time cannot be set: it is kept for when it can.
  const now = (media: HTMLMediaElement) =>
    hasMetadata(media) ? media.currentTime : (position.current?.time ?? 0);
  const seek = (seconds: number) => {
    const media = ref.current;
    if (!media) return;
    const time = clampTime(seconds, media.duration);
    if (hasMetadata(media)) media.currentTime = time;
    else position.current = { time, playing: !media.paused };
  };
  const step = (direction: -1 | 1) => {
    const media = ref.current;
    if (!media) return;
    media.pause();
    seek(stepFrame(now(media), fps, direction, media.duration));
  };
  const setRate = (rate: number) => {
    if (ref.current) ref.current.playbackRate = rate;
  };
  const command = (c: ViewerCommand) => {
    const media = ref.current;
    if (!media) return false;
    if (c === "togglePlay") togglePlay(media);
    else if (c === "back") seek(now(media) - SEEK_STEP);
    else if (c === "forward") seek(now(media) + SEEK_STEP);
    else if (c === "previousFrame") step(-1);
    else if (c === "nextFrame") step(1);
    else return false;
    return true;
  };
  return { ref, clock, seek, step, setRate, command, toggle: () => togglePlay(ref.current) };
}

/** What the audio and video views are given. */
export interface PlayerViewProps {
  sources: MediaSources;
  title: string;
  startMs?: number;
  markers?: ViewerMarker[];
  /** The file shown: where the view is in it is reported for note forms. */
  target?: ViewerTarget;
}

/** A view's player whose position, once settled, is what a note form attaches. */
export function useReportedPlayer({ sources, startMs, target }: PlayerViewProps) {
  const player = usePlayer(sources.playUrl, sources.fps, startMs);
  const { clock } = player;
  useReportPosition(
    target,
    { timeMs: Math.round(clock.time * 1000), page: null, fps: sources.fps },
    clock.paused,
  );
  return player;
}
