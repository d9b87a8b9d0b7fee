import { useEffect, useState } from "preact/hooks";
import type { NameMatches } from "@/contract/name-pattern";

/*
 * The rule's name pattern, judged by the contract's rule (RE2, as the service and the node judge
 * it). It loads only for a portal that has a pattern, keeping the page's first load light.
 */

export type { NameMatches };

/** No pattern, or none this page can judge: every name passes here and the service decides. */
export const anyName: NameMatches = () => true;

/** A matcher for the portal's pattern: the whole name must match, as on the service. */
export async function loadNameMatcher(): Promise<NameMatches> {
  return (await import("@/contract/name-pattern")).nameMatches;
}

/**
 * The matcher for a portal's pattern: every name matches when there is none; null while re2js
 * loads (the page then holds the Upload button), or if it failed to load (the service judges).
 */
export function useNameMatcher(pattern: string | null): NameMatches | null {
  const [matches, setMatches] = useState<NameMatches | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (pattern === null) return;
    let live = true;
    loadNameMatcher().then(
      (m) => live && setMatches(() => m),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [pattern]);
  if (pattern === null || failed) return anyName;
  return matches;
}
