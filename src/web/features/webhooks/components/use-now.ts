import { useEffect, useState } from "react";

/** The current time, re-read every `intervalMs` while mounted (countdowns, "older than"). */
export function useNow(intervalMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** "in 4 min 05 s" / "due now": a countdown precise to the second. */
export function formatCountdown(iso: string, now: number): string {
  const total = Math.round((new Date(iso).getTime() - now) / 1000);
  if (total <= 0) return "due now";
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `in ${h} h ${String(m).padStart(2, "0")} min`;
  if (m > 0) return `in ${m} min ${String(s).padStart(2, "0")} s`;
  return `in ${s} s`;
}
