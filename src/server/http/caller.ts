import type { Context } from "hono";
import { clientAddress } from "./client-address";
import type { AppEnv } from "./types";

/**
 * Who asks, for every service function that acts on someone's behalf: the workspace, the key and
 * member behind it (both null for a public page's visitor, who holds a link and no key), and the
 * origin the request came in on, which links and transfer specs are built on when no PUBLIC_URL
 * is configured.
 */
export interface Caller {
  workspaceId: string;
  keyId: string | null;
  memberId: string | null;
  origin: string;
}

export const requestOrigin = (c: Context<AppEnv>) => new URL(c.req.url).origin;

/** The caller of a keyed route (the auth middleware has run). */
export function callerOf(c: Context<AppEnv>): Caller {
  const { workspaceId, memberId, keyId } = c.get("auth");
  return { workspaceId, memberId, keyId, origin: requestOrigin(c) };
}

/**
 * Who asks on a public page (a share's or a portal's), which has no key: the page's access token
 * (from its header, or a query for an `<img>`), the client's address (the password slow-down
 * counts per address) and browser, and the origin as for a Caller.
 */
export interface Visitor {
  access?: string;
  address: string;
  userAgent?: string;
  origin: string;
}

export const visitorOf = (c: Context<AppEnv>, access: string | undefined): Visitor => ({
  access,
  address: clientAddress(c, c.get("deps").config.trustProxy),
  userAgent: c.req.header("User-Agent"),
  origin: requestOrigin(c),
});
