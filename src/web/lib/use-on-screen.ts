import { type RefObject, useEffect, useState } from "react";

/**
 * Whether the element is on screen now (inside the viewport and every scrolling ancestor), for
 * work done only for what a person sees: a thumbnail asked for by a tile in view, given up when
 * it is scrolled past. Off while `enabled` is false; without IntersectionObserver, always on.
 */
export function useOnScreen(ref: RefObject<Element | null>, enabled: boolean): boolean {
  const [onScreen, setOnScreen] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element) return;
    if (typeof IntersectionObserver === "undefined") {
      setOnScreen(true);
      return;
    }
    const observer = new IntersectionObserver((entries) =>
      setOnScreen(entries.at(-1)?.isIntersecting ?? false),
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, enabled]);
  return enabled && onScreen;
}
