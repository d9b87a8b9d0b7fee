import { issueAccessToken, validAccessToken } from "./access-tokens";
import { ApiError } from "./api-error";
import { type AttemptStore, tryPassword } from "./attempt-limiter";
import { type Clock, toIso } from "./clock";
import { passwordMatches, wrongPassword } from "./passwords";

/*
 * The one gate of the pages without a key (a share's recipient page, a portal's page). A page
 * behind a password is unlocked once per visit: the right password, typed under the slow-down
 * (attempt-limiter.ts), buys an access token (access-tokens.ts) that each later request of the
 * visit carries. A page without a password lets everyone in.
 */

/** One kind of page: what its tries are counted as, its tokens' key and their life. */
export interface PublicPage {
  kind: "share" | "portal";
  /** The key's file in DATA_DIR. */
  keyFile: string;
  ttlSeconds: number;
}

/** What one page's password guards. */
export interface Guarded {
  /** The share's or portal's id: the slow-down counts tries against it. */
  id: string;
  passwordHash: string | null;
  /** What a token is bound to: a token issued for another subject opens nothing here. */
  subject: string;
}

type Deps = { accessStore: AttemptStore; clock: Clock; config: { dataDir: string } };

const keyOf = (deps: Deps, page: PublicPage) => ({
  dataDir: deps.config.dataDir,
  file: page.keyFile,
});

export function hasAccess(deps: Deps, page: PublicPage, g: Guarded, token?: string) {
  if (g.passwordHash === null) return true;
  return validAccessToken(keyOf(deps, page), g.subject, token, deps.clock.now());
}

/** 403 `forbidden` (`details.reason` `password_required`) without a valid access token. */
export function requireAccess(deps: Deps, page: PublicPage, g: Guarded, token?: string) {
  if (!hasAccess(deps, page, g, token))
    throw new ApiError(403, "forbidden", `This ${page.kind} needs its password`, {
      reason: "password_required",
    });
}

/**
 * Checks a typed password under the slow-down (429 `rate_limited` before it is even looked at
 * when the address or the page must wait). A wrong one runs `onWrong` (a share logs it for its
 * receipt), then is 403 `forbidden` with `details.reason` `wrong_password`.
 */
export async function checkPassword(
  deps: Deps,
  page: PublicPage,
  g: Omit<Guarded, "subject">,
  a: { address: string; password: string; onWrong?: () => void | Promise<void> },
): Promise<void> {
  const hash = g.passwordHash;
  if (hash === null) return;
  const verdict = await tryPassword(
    deps,
    { kind: page.kind, target: g.id, address: a.address, password: a.password },
    () => passwordMatches(hash, a.password),
  );
  if (verdict.ok) return;
  await a.onWrong?.();
  throw wrongPassword(verdict.triesBeforeDelay);
}

/** What the right password buys (any password, where none is set): access for the visit. */
export function issueAccess(deps: Deps, page: PublicPage, g: Guarded) {
  const expiresAt = deps.clock.now() + page.ttlSeconds * 1000;
  return {
    accessToken: issueAccessToken(keyOf(deps, page), g.subject, expiresAt),
    expiresAt: toIso(expiresAt),
  };
}
