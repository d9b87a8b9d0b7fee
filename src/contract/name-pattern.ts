import { RE2JS, RE2JSException } from "re2js";

/*
 * A portal's name rule, judged one way everywhere: RE2 (re2js), whose time is linear in the name
 * whatever the pattern, so `(a+)+$` can stall neither the service nor a sender's tab, and a name
 * passes on the page exactly when it passes on the service. The service refuses a pattern with
 * `namePatternProblem` when a portal is saved; the console's form checks it with the same
 * function before sending; the service, the node and the portal page match names with
 * `nameMatches`. A module of its own (re2js is large): the console and the portal page load it
 * only when a portal's form is open or a portal has a pattern.
 */

export type NameMatches = (pattern: string, name: string) => boolean;

/** The compiled pattern, or why RE2 refuses it. */
function compile(pattern: string): RE2JS | string {
  try {
    return RE2JS.compile(pattern);
  } catch (err) {
    if (!(err instanceof RE2JSException)) throw err;
    return `Not an RE2 regular expression: ${err.message} (RE2 has no backreferences and no lookaround)`;
  }
}

/** Why a name rule is not one RE2 runs, or null. */
export function namePatternProblem(pattern: string): string | null {
  const re = compile(pattern);
  return typeof re === "string" ? re : null;
}

/** Patterns compiled once; null for one RE2 cannot compile. */
const compiled = new Map<string, RE2JS | null>();

/**
 * Whether a file's name (not its folders) matches the rule as a whole. A pattern RE2 cannot
 * compile matches every name: the service refused it when the portal was saved, so only a page
 * holding a stale rule meets one, and the service has the last word there.
 */
export const nameMatches: NameMatches = (pattern, name) => {
  let re = compiled.get(pattern);
  if (re === undefined) {
    const result = compile(pattern);
    re = typeof result === "string" ? null : result;
    if (compiled.size > 500) compiled.clear();
    compiled.set(pattern, re);
  }
  return re === null || re.matches(name);
};
