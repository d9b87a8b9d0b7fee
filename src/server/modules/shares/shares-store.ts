import type { z } from "zod";
import type {
  CreatedShare,
  listCommentsQuerySchema,
  listSharesQuerySchema,
  Share,
  ShareComment,
  SharesPage,
} from "@/contract/shares";
import type { AppDeps } from "@/server/deps";
import type { Caller } from "@/server/http/caller";
import { addMemberComment, type CommentInput, listComments } from "./comments.service";
import { type CreateInput, createShare } from "./create.service";
import { revokeShare, type UpdateInput, updateShare } from "./lifecycle.service";
import { getShare, listShares } from "./shares.service";

export type ListSharesInput = z.output<typeof listSharesQuerySchema>;
export type ListCommentsInput = z.output<typeof listCommentsQuerySchema>;
export interface CommentsPage {
  items: ShareComment[];
  next: string | null;
}

/**
 * The shares area's metadata port for the console's calls (docs/scale-out.md, Shares metadata):
 * one async call per unit of work. SQLite's implementation (below) runs today's synchronous
 * transactions inside the call; PostgreSQL's is shares-store.pg.ts. Both answer alike, errors
 * and recorded events included (shares-store.test.ts). Unknown ids are 404 `not_found` with
 * `details.shareId`.
 */
export interface SharesStore {
  /** Newest first, filtered and paged as listSharesRoute says. */
  listShares(caller: Caller, q: ListSharesInput): Promise<SharesPage>;
  getShare(caller: Caller, id: string): Promise<Share>;
  /**
   * The share, its snapshot of files, its hold on their blobs, its recipients' personal links
   * and mail (with their mail jobs), its expiry job and `share.created`, in one transaction.
   */
  createShare(caller: Caller, body: CreateInput): Promise<CreatedShare>;
  /** New limits, a timeline entry, an expiry job for a new expiry, `share.extended`. */
  updateShare(caller: Caller, id: string, body: UpdateInput): Promise<Share>;
  /** Revoked once (`share.revoked`, the blobs' hold given back); again: the share unchanged. */
  revokeShare(caller: Caller, id: string): Promise<Share>;
  /** Oldest first, after the comment `after`. */
  listShareComments(caller: Caller, id: string, q: ListCommentsInput): Promise<CommentsPage>;
  /** A comment by the caller's member, or a reply (`unknown_parent`), maybe anchored. */
  addShareComment(caller: Caller, id: string, body: CommentInput): Promise<ShareComment>;
}

/**
 * The embedded engine: the module's functions, unchanged, inside each call. They take the whole
 * of AppDeps, which is built around this store, hence the getter.
 */
export class SqliteSharesStore implements SharesStore {
  constructor(private readonly deps: () => AppDeps) {}

  async listShares(caller: Caller, q: ListSharesInput) {
    return listShares(this.deps(), caller, q);
  }

  async getShare(caller: Caller, id: string) {
    return getShare(this.deps(), caller, id);
  }

  createShare(caller: Caller, body: CreateInput) {
    return createShare(this.deps(), caller, body);
  }

  async updateShare(caller: Caller, id: string, body: UpdateInput) {
    return updateShare(this.deps(), caller, id, body);
  }

  async revokeShare(caller: Caller, id: string) {
    return revokeShare(this.deps(), caller, id);
  }

  async listShareComments(caller: Caller, id: string, q: ListCommentsInput) {
    return listComments(this.deps(), caller.workspaceId, id, q);
  }

  async addShareComment(caller: Caller, id: string, body: CommentInput) {
    return addMemberComment(this.deps(), caller, id, body);
  }
}
