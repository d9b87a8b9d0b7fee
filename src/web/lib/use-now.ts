import { useEffect, useState } from "react";

/** The current time, re-read every `intervalMs` while mounted ("3 minutes ago" stays true, countdowns tick). */
export function useNow(intervalMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
