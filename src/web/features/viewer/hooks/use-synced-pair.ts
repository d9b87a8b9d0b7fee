import { useEffect, useState } from "react";
import type { ViewerCommand } from "../viewer-keymap";
import { usePlayer } from "./use-player";

/** Further apart than this, the following side is put back on the leading side's time. */
const DRIFT_SECONDS = 0.12;

/**
 * Two players on one clock: the left leads (play, pause, seek, speed) and the right follows it,
 * corrected when it drifts; only the side chosen is heard.
 */
export function useSyncedPair(
  srcs: [string | null, string | null],
  fps: number,
  startMs: number | undefined,
) {
  const lead = usePlayer(srcs[0], fps, startMs);
  const follow = usePlayer(srcs[1], fps, startMs);
  const [audible, setAudible] = useState<0 | 1>(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the elements mount with their sources.
  useEffect(() => {
    const a = lead.ref.current;
    const b = follow.ref.current;
    if (!a || !b) return;
    const sync = (e: Event) => {
      if (e.type === "play") void b.play().catch(() => {});
      if (e.type === "pause") b.pause();
      if (e.type === "ratechange") b.playbackRate = a.playbackRate;
      if (e.type === "seeking" || Math.abs(b.currentTime - a.currentTime) > DRIFT_SECONDS)
        b.currentTime = Math.min(a.currentTime, b.duration || a.currentTime);
    };
    const events = ["play", "pause", "ratechange", "seeking", "timeupdate"];
    for (const name of events) a.addEventListener(name, sync);
    return () => {
      for (const name of events) a.removeEventListener(name, sync);
    };
  }, [lead.ref, follow.ref, srcs[0], srcs[1]]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the elements mount with their sources.
  useEffect(() => {
    if (lead.ref.current) lead.ref.current.muted = audible !== 0;
    if (follow.ref.current) follow.ref.current.muted = audible !== 1;
  }, [audible, lead.ref, follow.ref, srcs[0], srcs[1]]);
  const command = (c: ViewerCommand) => {
    if (c === "previousFrame" || c === "nextFrame") {
      lead.step(c === "nextFrame" ? 1 : -1);
      return true;
    }
    return lead.command(c);
  };
  return { lead, follow, audible, setAudible, command };
}
