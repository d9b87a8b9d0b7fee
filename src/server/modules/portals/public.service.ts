import type { PublicPortal } from "@/contract/portal-public";
import { PORTAL_ACCESS_TTL_SECONDS, portalStateOf } from "@/contract/portal-rules";
import type { Db } from "@/server/db/database";
import type { AppDeps } from "@/server/deps";
import type { Visitor } from "@/server/http/caller";
import { notFound } from "@/server/lib/api-error";
import type { AttemptStore } from "@/server/lib/attempt-limiter";
import { toIso } from "@/server/lib/clock";
import {
  checkPassword,
  type Guarded,
  hasAccess,
  issueAccess,
  type PublicPage,
  requireAccess,
} from "@/server/lib/public-access";
import { getWorkspace } from "@/server/modules/workspaces/workspaces.repository";
import { requireOpenPortal } from "./portal-gate";
import { type PortalRow, portalBySlug } from "./portals.repository";
import { rulesOf, specOf } from "./portals.service";

/*
 * The sender's side of a portal: open it by its slug and unlock it (lib/public-access.ts, the
 * same slow-down for wrong passwords as a share's) here; start an upload (a send transfer,
 * client `portal`, into a folder of its own: public-start.service.ts) and report it landed or
 * give it up (public-landing.service.ts). The data node checks every file against the portal
 * again (`portal-gate.ts`).
 */

const PORTAL_PAGE: PublicPage = {
  kind: "portal",
  keyFile: "portal-access.key",
  ttlSeconds: PORTAL_ACCESS_TTL_SECONDS,
};

// The password's hash is in the subject: changing or removing the password signs every
// visitor out.
const portalGuard = (portal: PortalRow): Guarded => ({
  id: portal.id,
  passwordHash: portal.password_hash,
  subject: `${portal.id}\n${portal.password_hash}`,
});

/** What each request of the page has in hand: the slug and the visitor. */
export interface PortalRequest extends Visitor {
  slug: string;
}

/** Deps of the page's checks: the clock, the token keys' data dir, the password tries. */
export type PageDeps = Pick<AppDeps, "clock" | "config"> & { accessStore: AttemptStore };

/** A slug that could be one: only these are looked up. */
export const slugShaped = (slug: string) => /^[a-z0-9-]{1,64}$/.test(slug);

/** 404 (`details.reason` `unknown_portal`) for no portal. */
export function knownPortal(portal: PortalRow | undefined) {
  if (!portal) throw notFound("Portal", { reason: "unknown_portal" });
  return portal;
}

export const resolvePortal = (db: Db, slug: string) =>
  knownPortal(slugShaped(slug) ? portalBySlug(db, slug) : undefined);

/** An open portal the visitor has access to: what starting an upload needs. */
export function enterPortal(deps: AppDeps, req: PortalRequest) {
  const portal = resolvePortal(deps.db, req.slug);
  requireOpenPortal(portal, deps.clock.now());
  requireAccess(deps, PORTAL_PAGE, portalGuard(portal), req.access);
  return portal;
}

/** The page as the visitor sees it, with the workspace's name read by the engine. */
export function publicPortal(
  deps: PageDeps,
  portal: PortalRow,
  workspaceName: string,
  access: string | undefined,
): PublicPortal {
  const now = deps.clock.now();
  return {
    title: portal.title,
    message: portal.message,
    workspaceName,
    state: portalStateOf({ status: portal.status, expiresAt: portal.expires_at }, now),
    passwordRequired: !hasAccess(deps, PORTAL_PAGE, portalGuard(portal), access),
    requireEmail: portal.require_email === 1,
    fields: JSON.parse(portal.fields),
    rules: rulesOf(portal),
    maxBytesPerUpload: portal.max_bytes_per_upload,
    spec: specOf(portal),
    expiresAt: portal.expires_at === null ? null : toIso(portal.expires_at),
    dueAt: portal.due_at === null ? null : toIso(portal.due_at),
  };
}

export function openPortal(deps: AppDeps, req: PortalRequest): PublicPortal {
  const portal = resolvePortal(deps.db, req.slug);
  const workspaceName = getWorkspace(deps.db, portal.workspace_id)?.name ?? "";
  return publicPortal(deps, portal, workspaceName, req.access);
}

/** An open portal's password checked under the slow-down; the visit's access token. */
export async function unlockOpen(
  deps: PageDeps,
  portal: PortalRow,
  req: Visitor,
  password: string,
) {
  requireOpenPortal(portal, deps.clock.now());
  // Wrong passwords: as for shares (docs/api-decisions.md, Shares and receipts, Password).
  await checkPassword(deps, PORTAL_PAGE, portalGuard(portal), { address: req.address, password });
  return issueAccess(deps, PORTAL_PAGE, portalGuard(portal));
}

export const unlockPortal = (deps: AppDeps, req: PortalRequest, password: string) =>
  unlockOpen(deps, resolvePortal(deps.db, req.slug), req, password);
