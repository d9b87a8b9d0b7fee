import type { PublicPortal, SenderStatusPage } from "@/contract/portal-public";
import type { AppDeps } from "@/server/deps";
import { openPortal, type PortalRequest, type unlockOpen, unlockPortal } from "./public.service";
import { senderStatus } from "./sender-status.service";

/** What the right password buys: the visit's access token and when it ends. */
export type PortalAccess = Awaited<ReturnType<typeof unlockOpen>>;

/**
 * The portal page's port (docs/scale-out.md, Portals metadata): the units a sender's page reads
 * without a key, one async call each. SQLite's implementation (below) runs public.service.ts and
 * sender-status.service.ts inside the call; PostgreSQL's is portal-public-store.pg.ts. Both
 * answer alike (portal-public-store.test.ts). Starting an upload and reporting it landed or
 * given up stay on SQLite: each changes its transfer in the same transaction, and the transfers
 * area has no PostgreSQL unit to call inside another's.
 */
export interface PortalPublicStore {
  /**
   * The page by its slug, in any state, with whether the visitor's access token (if any) still
   * opens it; 404 `unknown_portal`.
   */
  openPortal(req: PortalRequest): Promise<PublicPortal>;
  /**
   * An open portal's password, under the slow-down shared with shares' pages; the visit's access
   * token. 403 `wrong_password`, 429 `rate_limited`, 403 `portal_*` for a closed portal.
   */
  unlockPortal(req: PortalRequest, password: string): Promise<PortalAccess>;
  /** The sender's status page of a landed upload, opened by its token; 404 `unknown_upload`. */
  senderStatus(
    slug: string,
    uploadId: string,
    token: string | undefined,
  ): Promise<SenderStatusPage>;
}

/** The embedded engine: the page's services, unchanged, inside each call. */
export class SqlitePortalPublicStore implements PortalPublicStore {
  /** The services take the whole AppDeps, which holds this store: read when a call runs. */
  constructor(private readonly depsOf: () => AppDeps) {}

  async openPortal(req: PortalRequest) {
    return openPortal(this.depsOf(), req);
  }

  async unlockPortal(req: PortalRequest, password: string) {
    return unlockPortal(this.depsOf(), req, password);
  }

  async senderStatus(slug: string, uploadId: string, token: string | undefined) {
    return senderStatus(this.depsOf(), slug, uploadId, token);
  }
}
