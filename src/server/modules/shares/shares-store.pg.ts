import type { CreatedShare, Share, ShareComment, SharesPage } from "@/contract/shares";
import { lockWorkspace, type PgClient, type PgPool, withPgTransaction } from "@/server/db/pg/pool";
import type { Caller } from "@/server/http/caller";
import { notFound } from "@/server/lib/api-error";
import type { Clock } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import type { PgEventRecorder } from "@/server/modules/events/events.pg";
import type { AnnouncedEvent } from "@/server/modules/events/events.repository";
import { subtreeRange } from "@/server/modules/files/files.repository";
import { outboxEntry } from "@/server/modules/mail/mailer";
import { queueMailPg } from "@/server/modules/mail/outbox.pg";
import { addCommentPg } from "./comments.pg";
import { type CommentInput, commentsPage, memberAuthor } from "./comments.service";
import {
  addToSnapshot,
  type CreateInput,
  checkSnapshot,
  createdEvent,
  createPlan,
  newShareRow,
  type Snapshot,
  snapshotPaths,
  snapshotRoom,
} from "./create.service";
import { newLimits, type UpdateInput } from "./lifecycle.service";
import { issuePersonalToken, linkUrl } from "./share-access";
import { shareMessage } from "./share-mail.service";
import {
  type CommentRow,
  listSharesSql,
  type RecipientRow,
  type ShareRow,
  type SnapshotFileRow,
} from "./shares.repository";
import { type ShareCreator, shareFilter, sharesPage, shareView } from "./shares.service";
import { holdBlobsPg, insertSharePg, scheduleExpiryPg } from "./shares-rows.pg";
import type { ListCommentsInput, ListSharesInput, SharesStore } from "./shares-store";

type Q = PgPool | PgClient;

const SHARE_BY_ID = "SELECT * FROM shares WHERE workspace_id = $1 AND id = $2";

/**
 * The shares area's console units on PostgreSQL (docs/scale-out.md, Shares metadata). A unit
 * that reads then writes holds a lock: create the workspace's (its snapshot reads the tree that
 * a trash or rename in another process changes), update and revoke the share's row (`FOR
 * UPDATE`: a revoke committed meanwhile is seen, so a revoked share is never extended). Each
 * records its event last, in its transaction, and enqueues its jobs there too.
 *
 * Revoking gives back the share's hold on its blobs; content left with no reference is
 * collected by the files area's purge, which is SQLite's until that area moves (SQLite's store
 * collects at once, as before).
 */
export class PgSharesStore implements SharesStore {
  constructor(
    private readonly pool: PgPool,
    private readonly clock: Clock,
    private readonly events: PgEventRecorder,
    private readonly config: { publicUrl: string | null; smtpUrl: string | null },
  ) {}

  async listShares(caller: Caller, q: ListSharesInput): Promise<SharesPage> {
    const now = this.clock.now();
    const values: unknown[] = [];
    const sql = listSharesSql(
      caller.workspaceId,
      now,
      shareFilter(q, now),
      // Typed, since a placeholder in LIMIT or beside another gets no type from its place.
      (_, v) => `$${values.push(v)}::${typeof v === "number" ? "bigint" : "text"}`,
      "share_recipients",
    );
    const { rows } = await this.pool.query<ShareRow>(sql, values);
    const views = await this.views(this.pool, rows.slice(0, q.limit), this.base(caller));
    return sharesPage(rows, q.limit, (r) => views.get(r.id)!);
  }

  async getShare(caller: Caller, id: string): Promise<Share> {
    return this.view(this.pool, await this.require(this.pool, caller.workspaceId, id), caller);
  }

  async createShare(caller: Caller, body: CreateInput): Promise<CreatedShare> {
    const plan = await createPlan(body);
    const base = this.base(caller);
    return this.unit(async (c, now) => {
      await lockWorkspace(c, caller.workspaceId);
      const snap = await this.snapshot(c, caller.workspaceId, body.paths);
      const row = newShareRow(caller, body, plan, snap, now);
      await insertSharePg(c, row, snap.files);
      await holdBlobsPg(c, row.id, 1);
      const stored = (await this.one<ShareRow>(SHARE_BY_ID, [caller.workspaceId, row.id], c))!;
      const workspace = await this.one<{ name: string }>(
        "SELECT name FROM workspaces WHERE id = $1",
        [caller.workspaceId],
        c,
      );
      const workspaceName = workspace?.name ?? "";
      const recipientLinks: CreatedShare["recipientLinks"] = [];
      for (const email of plan.recipients) {
        const recipientId = newId();
        await c.query(
          "INSERT INTO share_recipients (id, share_id, email, created_at) VALUES ($1, $2, $3, $4)",
          [recipientId, row.id, email, now],
        );
        const { token, hash } = issuePersonalToken();
        await c.query(
          "INSERT INTO share_links (token_hash, share_id, recipient_id, created_at) VALUES ($1, $2, $3, $4)",
          [hash, row.id, recipientId, now],
        );
        const url = linkUrl(base, token);
        if (body.notify) {
          const message = shareMessage(stored, workspaceName, { id: recipientId, email }, url);
          await queueMailPg(c, outboxEntry(message, now, this.config.smtpUrl), now);
        }
        recipientLinks.push({ email, url });
      }
      await scheduleExpiryPg(c, row.id, stored.expires_at, now);
      const share = await this.view(c, stored, caller);
      const data = createdEvent(stored, snap.items, plan.recipients);
      const event = await this.events.write(c, caller.workspaceId, "share.created", data);
      return { answer: { ...share, recipientLinks }, event };
    });
  }

  async updateShare(caller: Caller, id: string, body: UpdateInput): Promise<Share> {
    return this.unit(async (c, now) => {
      const row = await this.require(c, caller.workspaceId, id, "FOR UPDATE");
      const { change, event } = newLimits(row, body, now);
      await c.query(
        `UPDATE shares SET expires_at = $1::bigint, max_downloads = $2, updated_at = $3::bigint,
           expired_at = CASE WHEN $1::bigint > $3::bigint THEN NULL ELSE expired_at END
         WHERE id = $4`,
        [change.expires_at, change.max_downloads, now, id],
      );
      await c.query(
        `INSERT INTO share_changes (share_id, changed_at, expires_at, previous_expires_at, max_downloads, previous_max_downloads)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          id,
          now,
          change.expires_at,
          change.previous_expires_at,
          change.max_downloads,
          change.previous_max_downloads,
        ],
      );
      if (change.expires_at !== row.expires_at)
        await scheduleExpiryPg(c, id, change.expires_at, now);
      const share = await this.view(c, await this.require(c, caller.workspaceId, id), caller);
      return {
        answer: share,
        event: await this.events.write(c, caller.workspaceId, "share.extended", event),
      };
    });
  }

  async revokeShare(caller: Caller, id: string): Promise<Share> {
    await this.unit(async (c, now) => {
      const row = await this.require(c, caller.workspaceId, id, "FOR UPDATE");
      if (row.revoked_at !== null) return { answer: null, event: null };
      await c.query("UPDATE shares SET revoked_at = $1, updated_at = $1 WHERE id = $2", [now, id]);
      await holdBlobsPg(c, id, -1);
      const event = await this.events.write(c, caller.workspaceId, "share.revoked", {
        shareId: id,
      });
      return { answer: null, event };
    });
    return this.getShare(caller, id);
  }

  async listShareComments(caller: Caller, id: string, q: ListCommentsInput) {
    await this.require(this.pool, caller.workspaceId, id);
    const { rows } = await this.pool.query<CommentRow>(
      "SELECT * FROM share_comments WHERE share_id = $1 AND id > $2 ORDER BY id LIMIT $3",
      [id, q.after ?? "", q.limit + 1],
    );
    return commentsPage(rows, q.limit);
  }

  async addShareComment(caller: Caller, id: string, body: CommentInput): Promise<ShareComment> {
    const share = await this.require(this.pool, caller.workspaceId, id);
    const member = caller.memberId
      ? await this.one<ShareCreator>("SELECT * FROM members WHERE id = $1", [caller.memberId])
      : undefined;
    return this.unit(async (c, now) => ({
      answer: await addCommentPg(c, share, memberAuthor(member), body, now),
      event: null,
    }));
  }

  private async one<T extends object>(sql: string, values: unknown[], c: Q = this.pool) {
    return (await c.query<T>(sql, values)).rows[0];
  }

  /** One transaction; its event is announced once it has committed. */
  private async unit<T>(
    fn: (c: PgClient, now: number) => Promise<{ answer: T; event: AnnouncedEvent | null }>,
  ): Promise<T> {
    const { answer, event } = await withPgTransaction(this.pool, (c) => fn(c, this.clock.now()));
    if (event) this.events.announce(event);
    return answer;
  }

  private base(caller: Caller) {
    return this.config.publicUrl ?? caller.origin;
  }

  private async require(c: Q, workspaceId: string, id: string, lock = "") {
    const row = (await c.query<ShareRow>(`${SHARE_BY_ID} ${lock}`, [workspaceId, id])).rows[0];
    if (!row) throw notFound(`Share ${id}`, { shareId: id });
    return row;
  }

  private async view(c: Q, row: ShareRow, caller: Caller) {
    return (await this.views(c, [row], this.base(caller))).get(row.id)!;
  }

  /** The shares as the API shows them, their recipients and creators read in two statements. */
  private async views(c: Q, rows: ShareRow[], base: string): Promise<Map<string, Share>> {
    const ids = rows.map((r) => r.id);
    const members = [...new Set(rows.flatMap((r) => (r.member_id ? [r.member_id] : [])))];
    const recipients = await c.query<RecipientRow>(
      "SELECT * FROM share_recipients WHERE share_id = ANY($1::text[]) ORDER BY created_at, email",
      [ids],
    );
    const creators = await c.query<ShareCreator>(
      "SELECT id, name, email FROM members WHERE id = ANY($1::text[])",
      [members],
    );
    const now = this.clock.now();
    return new Map(
      rows.map((row) => [
        row.id,
        shareView(row, {
          base,
          now,
          recipients: recipients.rows.filter((r) => r.share_id === row.id),
          member: creators.rows.find((m) => m.id === row.member_id),
        }),
      ]),
    );
  }

  private async snapshot(c: PgClient, workspaceId: string, paths: string[]) {
    const s: Snapshot = { items: [], files: [] };
    for (const p of snapshotPaths(paths)) {
      const entry = (
        await c.query<{ is_file: number }>(
          "SELECT is_file FROM entries WHERE workspace_id = $1 AND path = $2 AND trash_id IS NULL",
          [workspaceId, p],
        )
      ).rows[0];
      const [lo, hi] = subtreeRange(p);
      const found = entry
        ? await c.query<SnapshotFileRow>(
            `SELECT path, size, sha256, mime, protection FROM entries
             WHERE workspace_id = $1 AND trash_id IS NULL AND is_file = 1
               AND (path = $2 OR (path >= $3 AND path < $4))
             ORDER BY path LIMIT $5`,
            [workspaceId, p, lo, hi, snapshotRoom(s)],
          )
        : { rows: [] };
      addToSnapshot(s, p, entry, found.rows);
    }
    return checkSnapshot(s);
  }
}
