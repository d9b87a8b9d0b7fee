import type { PublicShare } from "@/contract/share-public";
import type { ShareComment } from "@/contract/shares";
import { type PgClient, type PgPool, withPgTransaction } from "@/server/db/pg/pool";
import type { Caller } from "@/server/http/caller";
import { notFound } from "@/server/lib/api-error";
import type { AttemptStore } from "@/server/lib/attempt-limiter";
import type { Clock } from "@/server/lib/clock";
import { hasAccess, issueAccess, requireAccess } from "@/server/lib/public-access";
import { hashSecret } from "@/server/lib/secrets";
import { addCommentPg } from "./comments.pg";
import { commentsPage } from "./comments.service";
import {
  countsAsView,
  type LinkRequest,
  linkAuthor,
  publicShareView,
  type RecipientCommentInput,
  redactComments,
  type SharedFiles,
} from "./public.service";
import { matrixFactsPg, receiptFactsPg } from "./receipt-facts.pg";
import { receiptCsv, receiptOf } from "./receipts.service";
import {
  checkSharePasswordWith,
  isLinkToken,
  type PasswordFailure,
  type ResolvedLink,
  requireOpenShare,
  SHARE_PAGE,
  shareGuard,
} from "./share-access";
import type { SharePublicStore } from "./share-public-store";
import type { CommentRow, RecipientRow, ShareFileRow, ShareRow } from "./shares.repository";
import type { ListCommentsInput } from "./shares-store";

type Q = PgPool | PgClient;

/** What the units need beside the pool: the slow-down's tries, a clock, the token key's dir. */
export interface PgSharePublicDeps {
  accessStore: AttemptStore;
  clock: Clock;
  config: { dataDir: string; publicUrl: string | null };
}

/**
 * The recipient's side of a share and its receipts on PostgreSQL (docs/scale-out.md, Shares:
 * the recipient page and receipts). A view, a wrong password and a comment are each one
 * transaction; a receipt's reads share one REPEATABLE READ snapshot. Password tries are
 * counted by the access store given (PgAccessStore in a scale-out profile), not here.
 */
export class PgSharePublicStore implements SharePublicStore {
  constructor(
    private readonly pool: PgPool,
    private readonly deps: PgSharePublicDeps,
  ) {}

  async openShare(req: LinkRequest): Promise<PublicShare> {
    const { deps } = this;
    const link = await this.resolve(req.token);
    const { share } = link;
    requireOpenShare(share, deps.clock.now());
    const unlocked = hasAccess(deps, SHARE_PAGE, shareGuard(link, req.token), req.access);
    if (countsAsView(req)) await this.recordView(link, req);
    const workspace = await this.one<{ name: string }>(
      "SELECT name FROM workspaces WHERE id = $1",
      [share.workspace_id],
    );
    const files = unlocked
      ? (
          await this.pool.query<ShareFileRow>(
            "SELECT * FROM share_files WHERE share_id = $1 ORDER BY idx",
            [share.id],
          )
        ).rows
      : [];
    return publicShareView(link, {
      now: deps.clock.now(),
      unlocked,
      workspaceName: workspace?.name ?? "",
      files,
    });
  }

  async unlockShare(req: LinkRequest, password: string) {
    const link = await this.resolve(req.token);
    requireOpenShare(link.share, this.deps.clock.now());
    const log = (f: PasswordFailure) =>
      this.pool
        .query(
          `INSERT INTO share_password_failures (share_id, recipient_id, address, failed_at)
           VALUES ($1, $2, $3, $4)`,
          [f.share_id, f.recipient_id, f.address, f.failed_at],
        )
        .then(() => {});
    await checkSharePasswordWith(this.deps, { ...link, address: req.address, password }, log);
    return issueAccess(this.deps, SHARE_PAGE, shareGuard(link, req.token));
  }

  async publicComments(req: LinkRequest, q: ListCommentsInput) {
    const link = await this.open(req);
    const own = (await this.recipient(link))?.email ?? null;
    const { rows } = await this.pool.query<CommentRow>(
      "SELECT * FROM share_comments WHERE share_id = $1 AND id > $2 ORDER BY id LIMIT $3",
      [link.share.id, q.after ?? "", q.limit + 1],
    );
    return redactComments(commentsPage(rows, q.limit), own);
  }

  async addRecipientComment(req: LinkRequest, body: RecipientCommentInput): Promise<ShareComment> {
    const link = await this.open(req);
    const author = linkAuthor(await this.recipient(link), body.name);
    const { body: text, parentId, anchor } = body;
    return withPgTransaction(this.pool, (c) =>
      addCommentPg(c, link.share, author, { body: text, parentId, anchor }, this.deps.clock.now()),
    );
  }

  async sharedFiles(req: LinkRequest, paths: string[]): Promise<SharedFiles> {
    const { share } = await this.open(req);
    const { rows } = await this.pool.query<ShareFileRow>(
      "SELECT * FROM share_files WHERE share_id = $1 AND path = ANY($2::text[])",
      [share.id, paths],
    );
    return { share, files: new Map(rows.map((f) => [f.path, f])) };
  }

  async receipt(caller: Caller, shareId: string) {
    const facts = await withPgTransaction(
      this.pool,
      (c) => receiptFactsPg(c, caller.workspaceId, shareId),
      { isolation: "repeatable read" },
    );
    const base = this.deps.config.publicUrl ?? caller.origin;
    return receiptOf(facts, { now: this.deps.clock.now(), base });
  }

  async receiptCsv(workspaceId: string, shareId: string) {
    const facts = await withPgTransaction(
      this.pool,
      (c) => matrixFactsPg(c, workspaceId, shareId),
      { isolation: "repeatable read" },
    );
    return receiptCsv(facts);
  }

  private async one<T extends object>(sql: string, values: unknown[], c: Q = this.pool) {
    return (await c.query<T>(sql, values)).rows[0];
  }

  /** share-access.ts's resolveShareLink: the plain token in clear, a personal one by its hash. */
  private async resolve(token: string): Promise<ResolvedLink> {
    const link = isLinkToken(token) ? await this.lookUp(token) : null;
    if (!link) throw notFound("Share link", { reason: "unknown_link" });
    return link;
  }

  private async lookUp(token: string): Promise<ResolvedLink | null> {
    const plain = await this.one<ShareRow>("SELECT * FROM shares WHERE link_token = $1", [token]);
    if (plain) return plain.open_link ? { share: plain, recipientId: null } : null;
    const link = await this.one<{ share_id: string; recipient_id: string }>(
      "SELECT share_id, recipient_id FROM share_links WHERE token_hash = $1",
      [hashSecret(token)],
    );
    const share =
      link && (await this.one<ShareRow>("SELECT * FROM shares WHERE id = $1", [link.share_id]));
    return share ? { share, recipientId: link.recipient_id } : null;
  }

  /** An open share's link with access: what every read of content and every write needs. */
  private async open(req: LinkRequest) {
    const link = await this.resolve(req.token);
    requireOpenShare(link.share, this.deps.clock.now());
    requireAccess(this.deps, SHARE_PAGE, shareGuard(link, req.token), req.access);
    return link;
  }

  private async recipient(link: ResolvedLink) {
    if (!link.recipientId) return undefined;
    return this.one<RecipientRow>("SELECT * FROM share_recipients WHERE id = $1", [
      link.recipientId,
    ]);
  }

  /** activity.repository.ts's insertView: the row and both counters, in one transaction. */
  private recordView(link: ResolvedLink, req: LinkRequest) {
    const at = this.deps.clock.now();
    return withPgTransaction(this.pool, async (c) => {
      await c.query(
        `INSERT INTO share_views (share_id, recipient_id, address, user_agent, viewed_at)
         VALUES ($1, $2, $3, $4, $5)`,
        [link.share.id, link.recipientId, req.address, req.userAgent?.slice(0, 500) ?? null, at],
      );
      await c.query("UPDATE shares SET view_count = view_count + 1 WHERE id = $1", [link.share.id]);
      if (link.recipientId)
        await c.query(
          `UPDATE share_recipients SET views = views + 1, last_viewed_at = $2,
             first_viewed_at = coalesce(first_viewed_at, $2) WHERE id = $1`,
          [link.recipientId, at],
        );
    });
  }
}
