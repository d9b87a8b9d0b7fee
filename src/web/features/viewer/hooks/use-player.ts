import { useEffect, useRef } from "react";
import { clampTime, stepFrame } from "../state/media-time";
import type { ViewerCommand } from "../viewer-keymap";
import { togglePlay, useMediaClock } from "./use-media-clock";

/** Seconds a j/l or arrow press moves. */
const SEEK_STEP = 5;

/**
 * A media element the viewer plays: its clock, the actions of its controls and keys, the start
 * at `startMs`, and the position kept when the source changes (the original, then the proxy).
 */
export function usePlayer(src: string | null, fps: number, startMs: number | undefined) {
  const ref = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const clock = useMediaClock(ref, src);
  const resume = useRef<{ time: number; playing: boolean } | null>(
    startMs !== undefined ? { time: startMs / 1000, playing: false } : null,
  );
  useEffect(() => {
    const media = ref.current;
    if (!media || !src) return;
    const onLoaded = () => {
      const r = resume.current;
      resume.current = null;
      if (!r) return;
      media.currentTime = r.time;
      if (r.playing) void media.play().catch(() => {});
    };
    media.addEventListener("loadedmetadata", onLoaded);
    return () => {
      media.removeEventListener("loadedmetadata", onLoaded);
      // The next source starts where this one was.
      if (media.currentSrc) resume.current = { time: media.currentTime, playing: !media.paused };
    };
  }, [src]);

  const seek = (seconds: number) => {
    const media = ref.current;
    if (media) media.currentTime = clampTime(seconds, media.duration);
  };
  const step = (direction: -1 | 1) => {
    const media = ref.current;
    if (!media) return;
    media.pause();
    media.currentTime = stepFrame(media.currentTime, fps, direction, media.duration);
  };
  const setRate = (rate: number) => {
    if (ref.current) ref.current.playbackRate = rate;
  };
  const command = (c: ViewerCommand) => {
    const media = ref.current;
    if (!media) return false;
    if (c === "togglePlay") togglePlay(media);
    else if (c === "back") seek(media.currentTime - SEEK_STEP);
    else if (c === "forward") seek(media.currentTime + SEEK_STEP);
    else if (c === "previousFrame") step(-1);
    else if (c === "nextFrame") step(1);
    else return false;
    return true;
  };
  return { ref, clock, seek, step, setRate, command, toggle: () => togglePlay(ref.current) };
}
