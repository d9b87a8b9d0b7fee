import { type RefObject, useEffect, useState } from "react";

export interface MediaClock {
  time: number;
  duration: number;
  paused: boolean;
  rate: number;
}

const read = (m: HTMLMediaElement | null): MediaClock => ({
  time: m?.currentTime ?? 0,
  duration: m && Number.isFinite(m.duration) ? m.duration : 0,
  paused: m?.paused ?? true,
  rate: m?.playbackRate ?? 1,
});

const EVENTS = [
  "timeupdate",
  "durationchange",
  "loadedmetadata",
  "play",
  "pause",
  "ratechange",
  "seeked",
  "seeking",
] as const;

/**
 * A media element's time, duration, paused and speed as state. While playing it follows each
 * painted frame, so the playhead and timecode move smoothly rather than four times a second.
 */
export function useMediaClock(ref: RefObject<HTMLMediaElement | null>, src: string | null) {
  const [clock, setClock] = useState<MediaClock>(() => read(ref.current));
  useEffect(() => {
    const media = ref.current;
    if (!media || !src) return;
    let frame = 0;
    const update = () => setClock(read(media));
    const tick = () => {
      update();
      frame = media.paused ? 0 : requestAnimationFrame(tick);
    };
    const onEvent = (e: Event) => {
      update();
      if (e.type === "play" && !frame) frame = requestAnimationFrame(tick);
    };
    for (const name of EVENTS) media.addEventListener(name, onEvent);
    update();
    return () => {
      cancelAnimationFrame(frame);
      for (const name of EVENTS) media.removeEventListener(name, onEvent);
    };
  }, [ref, src]);
  return clock;
}

/** Plays or pauses; a play the browser refuses (autoplay rules) leaves it paused. */
export function togglePlay(media: HTMLMediaElement | null) {
  if (!media) return;
  if (media.paused) void media.play().catch(() => {});
  else media.pause();
}
