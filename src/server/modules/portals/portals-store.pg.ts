import type { BulkReviewResult } from "@/contract/portal-review";
import { PORTALS_LIST_MAX } from "@/contract/portal-rules";
import type { Portal, PortalDetail, PortalUpload } from "@/contract/portals";
import { lockWorkspace, type PgClient, type PgPool, withPgTransaction } from "@/server/db/pg/pool";
import type { Config } from "@/server/env";
import type { Caller } from "@/server/http/caller";
import { ApiError } from "@/server/lib/api-error";
import type { Clock } from "@/server/lib/clock";
import type { PgEventRecorder } from "@/server/modules/events/events.pg";
import type { AnnouncedEvent } from "@/server/modules/events/events.repository";
import type { JobRunner } from "@/server/workers/job-runner";
import { refusalOf, unknownUpload } from "./bulk-review.service";
import { createPortalPg, updatePortalPg } from "./portal-writes.pg";
import {
  type PortalRow,
  UPLOAD_VIEW,
  type UploadFilter,
  type UploadView,
} from "./portals.repository";
import { DETAIL_UPLOADS, portalBase, portalView } from "./portals.service";
import type {
  BulkReviewBody,
  CreateBody,
  PortalsStore,
  ReviewBody,
  UpdateBody,
  UploadsQuery,
} from "./portals-store";
import { moveApprovedPg, moveBackPg, portalRowPg, tellSenderPg } from "./review.pg";
import { queueFilter, reviewable, reviewedEvent } from "./review.service";
import { addUploadNotePg, listUploadNotesPg, removeUploadNotePg } from "./upload-notes.pg";
import type { NoteBody } from "./upload-notes.service";
import { toUpload } from "./upload-view";

/** What the PostgreSQL units reach: the pool, the time, the event stream, settings, job rows. */
export interface PgPortalsContext {
  pool: PgPool;
  clock: Clock;
  events: PgEventRecorder;
  config: Config;
  /** Builds job rows (their attempts from the kinds registered); the rows go in with the unit. */
  jobs: Pick<JobRunner, "newJob">;
}

export type Queryable = PgPool | PgClient;

/**
 * portals.repository.ts's filterSql: `instr(lower(…))` becomes `strpos(lower(…))`, both taken
 * literally, and the typed text is folded under "C" (ASCII only, as SQLite's lower() folds):
 * the database's own collation would fold É too (docs/scale-out.md, Files metadata, traps).
 */
function filterPg(workspaceId: string, f: UploadFilter) {
  const where = ["u.workspace_id = $1"];
  const values: unknown[] = [workspaceId];
  const param = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  if (f.portalId) where.push(`u.portal_id = ${param(f.portalId)}`);
  if (f.q) {
    const q = `lower(${param(f.q)}::text COLLATE "C")`;
    where.push(`(strpos(lower(coalesce(u.sender_name, '')), ${q}) > 0
      OR strpos(lower(coalesce(u.sender_email, '')), ${q}) > 0
      OR u.portal_id IN (SELECT id FROM portals
        WHERE workspace_id = $1 AND strpos(lower(title), ${q}) > 0))`);
  }
  if (f.statuses) where.push(`u.status = ANY(${param([...f.statuses])}::text[])`);
  return { where, values, param };
}

const uploadViewPg = async (c: Queryable, workspaceId: string, id: string) =>
  (
    await c.query<UploadView>(`${UPLOAD_VIEW} WHERE u.id = $1 AND u.workspace_id = $2`, [
      id,
      workspaceId,
    ])
  ).rows[0];

/** One decision in the caller's transaction, which holds the workspace's lock. */
async function decidePg(
  ctx: PgPortalsContext,
  c: PgClient,
  caller: Caller,
  portalId: string,
  uploadId: string,
  body: ReviewBody,
) {
  const ws = caller.workspaceId;
  const portal = await portalRowPg(c, ws, portalId);
  const upload = reviewable(await uploadViewPg(c, ws, uploadId), portal, uploadId);
  const now = ctx.clock.now();
  const status = body.decision;
  await c.query(
    `UPDATE portal_uploads SET status = $1, review_note = $2, note_to_sender = $3,
       reviewed_by = $4, reviewed_at = $5 WHERE id = $6`,
    [status, body.note ?? null, body.noteToSender ?? null, caller.memberId, now, upload.id],
  );
  if (status === "approved" && upload.status !== "approved" && portal.approved_path !== null)
    await moveApprovedPg(ctx, c, upload, portal.approved_path, now);
  if (upload.status === "approved" && status !== "approved") await moveBackPg(ctx, c, upload, now);
  const updated = (await uploadViewPg(c, ws, upload.id))!;
  await tellSenderPg(ctx, c, portal, updated, portalBase(ctx, caller.origin), now);
  const view = toUpload(updated);
  const data = reviewedEvent(portal, upload, updated, view, body.decision);
  return { view, announced: await ctx.events.write(c, ws, "portal.upload.reviewed", data) };
}

/**
 * The portals area's console units on PostgreSQL (docs/scale-out.md, Portals metadata). Reads are
 * single statements on any pooled client; a decision holds its workspace's lock (SQLite's BEGIN
 * IMMEDIATE), so two reviewers of one upload run one after the other, and records its event
 * last, in its transaction, with the move job and the mail's job.
 */
export class PgPortalsStore implements PortalsStore {
  constructor(private readonly ctx: PgPortalsContext) {}

  async listUploads(workspaceId: string, query: UploadsQuery) {
    const { pool } = this.ctx;
    const filter = filterPg(workspaceId, queueFilter(query));
    const count = await pool.query<{ n: number }>(
      `SELECT count(*) AS n FROM portal_uploads u WHERE ${filter.where.join(" AND ")}`,
      filter.values,
    );
    const { where, values, param } = filter;
    if (query.cursor) where.push(`u.id < ${param(query.cursor)}`);
    const { rows } = await pool.query<UploadView>(
      `${UPLOAD_VIEW} WHERE ${where.join(" AND ")} ORDER BY u.id DESC LIMIT ${param(query.limit + 1)}`,
      values,
    );
    const page = rows.slice(0, query.limit);
    return {
      items: page.map(toUpload),
      next: rows.length > query.limit ? page.at(-1)!.id : null,
      total: count.rows[0]!.n,
    };
  }

  async reviewUpload(
    caller: Caller,
    portalId: string,
    uploadId: string,
    body: ReviewBody,
  ): Promise<PortalUpload> {
    const { ctx } = this;
    const { view, announced } = await withPgTransaction(ctx.pool, async (c) => {
      await lockWorkspace(c, caller.workspaceId);
      return decidePg(ctx, c, caller, portalId, uploadId, body);
    });
    ctx.events.announce(announced);
    return view;
  }

  /**
   * bulk-review.service.ts's reviewUploads: one transaction under the workspace's lock, each
   * upload decided as reviewUpload decides one, in a savepoint of its own.
   */
  async reviewUploads(caller: Caller, body: BulkReviewBody): Promise<BulkReviewResult> {
    const { ctx } = this;
    const { uploadIds, ...review } = body;
    const { result, announced } = await withPgTransaction(ctx.pool, async (c) => {
      await lockWorkspace(c, caller.workspaceId);
      const result: BulkReviewResult = { decided: [], refused: [] };
      const announced: AnnouncedEvent[] = [];
      for (const uploadId of new Set(uploadIds)) {
        const portalId = (await uploadViewPg(c, caller.workspaceId, uploadId))?.portal_id;
        await c.query("SAVEPOINT decision");
        try {
          if (portalId === undefined) throw unknownUpload(uploadId);
          const one = await decidePg(ctx, c, caller, portalId, uploadId, review);
          await c.query("RELEASE SAVEPOINT decision");
          result.decided.push(one.view);
          announced.push(one.announced);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          await c.query("ROLLBACK TO SAVEPOINT decision");
          result.refused.push(refusalOf(uploadId, error));
        }
      }
      return { result, announced };
    });
    for (const a of announced) ctx.events.announce(a);
    return result;
  }

  async listPortals(workspaceId: string, origin: string): Promise<Portal[]> {
    const { rows } = await this.ctx.pool.query<PortalRow & { awaiting: number }>(
      `SELECT p.*, (SELECT count(*) FROM portal_uploads u
                    WHERE u.portal_id = p.id AND u.status IN ('received', 'pending')) AS awaiting
       FROM portals p WHERE p.workspace_id = $1 ORDER BY p.id DESC LIMIT $2`,
      [workspaceId, PORTALS_LIST_MAX],
    );
    const now = this.ctx.clock.now();
    const base = portalBase(this.ctx, origin);
    return rows.map(({ awaiting, ...row }) => portalView(row, base, awaiting, now));
  }

  async getPortal(workspaceId: string, id: string, origin: string): Promise<PortalDetail> {
    const { pool, clock } = this.ctx;
    const row = await portalRowPg(pool, workspaceId, id);
    const [awaiting, uploads] = await Promise.all([
      pool.query<{ n: number }>(
        `SELECT count(*) AS n FROM portal_uploads
         WHERE portal_id = $1 AND status IN ('received', 'pending')`,
        [row.id],
      ),
      pool.query<UploadView>(`${UPLOAD_VIEW} WHERE u.portal_id = $1 ORDER BY u.id DESC LIMIT $2`, [
        row.id,
        DETAIL_UPLOADS,
      ]),
    ]);
    return {
      ...portalView(row, portalBase(this.ctx, origin), awaiting.rows[0]!.n, clock.now()),
      uploads: uploads.rows.map(toUpload),
    };
  }

  createPortal(caller: Caller, body: CreateBody) {
    return createPortalPg(this.ctx, caller, body);
  }

  updatePortal(workspaceId: string, portalId: string, body: UpdateBody, origin: string) {
    return updatePortalPg(this.ctx, workspaceId, portalId, body, origin);
  }

  listUploadNotes(workspaceId: string, uploadId: string) {
    return listUploadNotesPg(this.ctx, workspaceId, uploadId);
  }

  addUploadNote(caller: Caller, uploadId: string, body: NoteBody) {
    return addUploadNotePg(this.ctx, caller, uploadId, body);
  }

  removeUploadNote(caller: Caller, uploadId: string, noteId: string) {
    return removeUploadNotePg(this.ctx, caller, uploadId, noteId);
  }
}
