import { useEffect, useState } from "react";
import type { PatternCheck } from "../state/portal-form-check";

/**
 * The contract's name rule (RE2, as the service judges it), loaded when a portal form opens:
 * re2js is too large for the portals page's first load. null until it arrives, or if it cannot
 * load: the service then judges the pattern and the form shows its answer.
 */
export function useNamePatternCheck(): PatternCheck | null {
  const [check, setCheck] = useState<PatternCheck | null>(null);
  useEffect(() => {
    let live = true;
    import("@/contract/name-pattern").then(
      (rule) => live && setCheck(() => rule.namePatternProblem),
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  return check;
}
