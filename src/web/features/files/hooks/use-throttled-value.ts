import { useEffect, useRef, useState } from "react";

/**
 * The value, updated at most once per `ms` (first and last change always arrive). Used for the
 * pages a scroll position needs, so dragging the scrollbar across a huge folder requests the
 * pages where it stops, not every page it passes.
 */
export function useThrottledValue<T>(value: T, ms: number): T {
  const [throttled, setThrottled] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    const wait = last.current + ms - Date.now();
    if (wait <= 0) {
      last.current = Date.now();
      setThrottled(value);
      return;
    }
    const timer = setTimeout(() => {
      last.current = Date.now();
      setThrottled(value);
    }, wait);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return throttled;
}
