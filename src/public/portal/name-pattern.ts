import { useEffect, useState } from "preact/hooks";

/*
 * The rule's name pattern, judged by the engine the service and the node use: RE2 (re2js), whose
 * time is linear in the name whatever the pattern, so a pattern like `(a+)+$` cannot freeze a
 * sender's tab, and a name passes here exactly when it passes there. re2js loads only for a
 * portal that has a pattern, keeping the page's first load light.
 */

export type NameMatches = (pattern: string, name: string) => boolean;

/** No pattern, or none this page can judge: every name passes here and the service decides. */
export const anyName: NameMatches = () => true;

/** A matcher for the portal's pattern: the whole name must match, as `nameMatches` on the service. */
export async function loadNameMatcher(): Promise<NameMatches> {
  const { RE2JS } = await import("re2js");
  const compiled = new Map<string, InstanceType<typeof RE2JS> | null>();
  return (pattern, name) => {
    let re = compiled.get(pattern);
    if (re === undefined) {
      try {
        re = RE2JS.compile(pattern);
      } catch {
        // The service compiled it when the portal was saved; if this cannot, it has the last word.
        re = null;
      }
      compiled.set(pattern, re);
    }
    return re === null || re.matches(name);
  };
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
