/** Playback speeds the viewer offers. */
export const playbackRates = [0.5, 1, 1.5, 2] as const;

/** The time one frame away (`direction` -1 or 1), on the frame grid, within the media. */
export function stepFrame(seconds: number, fps: number, direction: -1 | 1, duration: number) {
  const rate = fps > 0 ? fps : 25;
  // Snap to the frame first so repeated steps never drift between frames.
  const frame = Math.round(seconds * rate) + direction;
  return clampTime(frame / rate, duration);
}

/** A time kept within 0 and the media's duration (when known). */
export const clampTime = (seconds: number, duration: number) =>
  Math.max(0, Number.isFinite(duration) && duration > 0 ? Math.min(duration, seconds) : seconds);

/** The time under `clientX` on a bar spanning `rect`, for a click or a drag on it. */
export function timeAtPointer(
  clientX: number,
  rect: { left: number; width: number },
  duration: number,
) {
  if (!(duration > 0) || rect.width <= 0) return 0;
  const ratio = Math.min(1, Math.max(0, (clientX - rect.left) / rect.width));
  return ratio * duration;
}
