import type { PgPool } from "@/server/db/pg/pool";
import type { Config } from "@/server/env";
import type { AttemptStore } from "@/server/lib/attempt-limiter";
import type { Clock } from "@/server/lib/clock";
import type { PortalPublicStore } from "./portal-public-store";
import type { PortalRow, UploadRow } from "./portals.repository";
import {
  knownPortal,
  type PortalRequest,
  publicPortal,
  slugShaped,
  unlockOpen,
} from "./public.service";
import { workspaceNamePg } from "./review.pg";
import { statusPage } from "./sender-status.service";

/** What the page's units reach on PostgreSQL: the pool, the time, the keys' dir, the tries. */
export interface PgPortalPublicContext {
  pool: PgPool;
  clock: Clock;
  config: Config;
  /** PostgreSQL's (PgAccessStore): every process counts the same wrong passwords. */
  accessStore: AttemptStore;
}

/**
 * The portal page's reads on PostgreSQL (docs/scale-out.md, Portals metadata): single statements
 * on pooled clients, then the same checks and views as SQLite's (public.service.ts,
 * sender-status.service.ts). The tokens are signed with the keys in DATA_DIR, as on SQLite: every
 * service process must share that directory's keys (or their files) to open each other's.
 */
export class PgPortalPublicStore implements PortalPublicStore {
  constructor(private readonly ctx: PgPortalPublicContext) {}

  private async portal(slug: string) {
    const row = slugShaped(slug)
      ? (await this.ctx.pool.query<PortalRow>("SELECT * FROM portals WHERE slug = $1", [slug]))
          .rows[0]
      : undefined;
    return knownPortal(row);
  }

  async openPortal(req: PortalRequest) {
    const portal = await this.portal(req.slug);
    const name = await workspaceNamePg(this.ctx.pool, portal.workspace_id);
    return publicPortal(this.ctx, portal, name, req.access);
  }

  async unlockPortal(req: PortalRequest, password: string) {
    return unlockOpen(this.ctx, await this.portal(req.slug), req, password);
  }

  async senderStatus(slug: string, uploadId: string, token: string | undefined) {
    const { pool } = this.ctx;
    const portal = await this.portal(slug);
    const [upload, name] = await Promise.all([
      pool.query<UploadRow>("SELECT * FROM portal_uploads WHERE id = $1", [uploadId]),
      workspaceNamePg(pool, portal.workspace_id),
    ]);
    return statusPage(this.ctx, portal, upload.rows[0], name, token);
  }
}
