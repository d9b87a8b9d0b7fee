import type { z } from "zod";
import type { createPortalBodySchema, Portal, updatePortalBodySchema } from "@/contract/portals";
import { insertRowPg } from "@/server/db/pg/insert-row";
import { lockWorkspace, type PgClient, withPgTransaction } from "@/server/db/pg/pool";
import type { Caller } from "@/server/http/caller";
import { byPath } from "@/server/modules/files/tree.pg";
import {
  checkChangeable,
  createdEvent,
  createPassword,
  fileInTheWay,
  foldersOf,
  inviteMessages,
  newPortalRow,
  portalChanges,
  updatePassword,
} from "./portal-rows";
import type { PortalRow } from "./portals.repository";
import { portalBase, portalView } from "./portals.service";
import type { PgPortalsContext } from "./portals-store.pg";
import { portalRowPg, queueMessagePg, workspaceNamePg } from "./review.pg";

/*
 * createPortal and updatePortal on PostgreSQL: the values portal-rows.ts gives both engines,
 * written in one transaction under the workspace's lock (the folder checks read the tree).
 */

async function checkFolderPg(
  c: PgClient,
  workspaceId: string,
  folder: string | null,
  field: string,
) {
  for (const p of foldersOf(folder))
    if ((await byPath(c, workspaceId, p))?.is_file) throw fileInTheWay(field, p);
}

export async function createPortalPg(
  ctx: PgPortalsContext,
  caller: Caller,
  body: z.output<typeof createPortalBodySchema>,
): Promise<Portal> {
  const passwordHash = await createPassword(body);
  const base = portalBase(ctx, caller.origin);
  const ws = caller.workspaceId;
  const { row, announced } = await withPgTransaction(ctx.pool, async (c) => {
    await lockWorkspace(c, ws);
    const now = ctx.clock.now();
    await checkFolderPg(c, ws, body.targetPath, "targetPath");
    await checkFolderPg(c, ws, body.approvedPath ?? null, "approvedPath");
    const fresh = newPortalRow(caller, body, passwordHash, now);
    const { rows } = await insertRowPg<PortalRow>(
      c,
      "portals",
      { ...fresh, updated_at: now },
      "RETURNING *",
    );
    const row = rows[0]!;
    for (const m of inviteMessages(row, await workspaceNamePg(c, ws), base))
      await queueMessagePg(ctx, c, m, now);
    return { row, announced: await ctx.events.write(c, ws, "portal.created", createdEvent(row)) };
  });
  ctx.events.announce(announced);
  return portalView(row, base, 0, ctx.clock.now());
}

export async function updatePortalPg(
  ctx: PgPortalsContext,
  workspaceId: string,
  id: string,
  body: z.output<typeof updatePortalBodySchema>,
  origin: string,
): Promise<Portal> {
  const passwordHash = await updatePassword(body);
  return withPgTransaction(ctx.pool, async (c) => {
    await lockWorkspace(c, workspaceId);
    const now = ctx.clock.now();
    checkChangeable(await portalRowPg(c, workspaceId, id));
    if (body.approvedPath) await checkFolderPg(c, workspaceId, body.approvedPath, "approvedPath");
    const changes = Object.entries(portalChanges(body, passwordHash, now));
    const sets = [
      ...changes.map(([column], i) => `${column} = $${i + 1}`),
      `updated_at = $${changes.length + 1}`,
    ];
    const { rows } = await c.query<PortalRow>(
      `UPDATE portals SET ${sets.join(", ")} WHERE id = $${changes.length + 2} RETURNING *`,
      [...changes.map(([, v]) => v), now, id],
    );
    const awaiting = await c.query<{ n: number }>(
      "SELECT count(*) AS n FROM portal_uploads WHERE portal_id = $1 AND status IN ('received', 'pending')",
      [id],
    );
    return portalView(rows[0]!, portalBase(ctx, origin), awaiting.rows[0]!.n, now);
  });
}
