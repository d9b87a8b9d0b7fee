import type { Receipt } from "@/contract/receipts";
import type { PublicShare } from "@/contract/share-public";
import type { ShareComment } from "@/contract/shares";
import type { AppDeps } from "@/server/deps";
import type { Caller } from "@/server/http/caller";
import {
  addRecipientComment,
  type LinkRequest,
  openShare,
  publicComments,
  type RecipientCommentInput,
  type SharedFiles,
  sharedFiles,
  unlockShare,
} from "./public.service";
import { readMatrixFacts, readReceiptFacts, receiptCsv, receiptOf } from "./receipts.service";
import { linkBase } from "./shares.service";
import type { CommentsPage, ListCommentsInput } from "./shares-store";

/** What the right password buys: the access token for the page's later requests. */
export interface ShareAccess {
  accessToken: string;
  expiresAt: string;
}

/**
 * The recipient's side of a share and its receipts (docs/scale-out.md, Shares: the recipient
 * page and receipts): one async call per unit of work. SQLite's implementation (below) runs
 * today's synchronous units inside the call; PostgreSQL's is share-public-store.pg.ts. Both
 * answer alike (share-public-store.test.ts). A link's units answer 404 `not_found` for an unknown
 * link and 403 `forbidden` for a share that is not open (`details.reason` `share_expired`…),
 * and those behind a password 403 `password_required` without a valid access token.
 */
export interface SharePublicStore {
  /** The page; a request without an access header counts as a view (of its link's recipient). */
  openShare(req: LinkRequest): Promise<PublicShare>;
  /**
   * The password, under the access store's slow-down (429 `rate_limited` before it is looked
   * at); a wrong one is logged for the receipt, then 403 `wrong_password`.
   */
  unlockShare(req: LinkRequest, password: string): Promise<ShareAccess>;
  /** Oldest first; another recipient's address is blanked. */
  publicComments(req: LinkRequest, q: ListCommentsInput): Promise<CommentsPage>;
  /** A comment or reply by the link's recipient (anonymous through the plain link). */
  addRecipientComment(req: LinkRequest, body: RecipientCommentInput): Promise<ShareComment>;
  /**
   * The named files that are the share's (an open share's, with access): what a download, a
   * thumbnail and a preview start from. A path not in the share is left out.
   */
  sharedFiles(req: LinkRequest, paths: string[]): Promise<SharedFiles>;
  /** The delivery receipt, read at one instant (404 `not_found` with `details.shareId`). */
  receipt(caller: Caller, shareId: string): Promise<Receipt>;
  /** The verification report's lines: all read (and the share checked) before the first. */
  receiptCsv(workspaceId: string, shareId: string): Promise<Generator<string>>;
}

/**
 * The embedded engine: the module's functions, unchanged, inside each call. They take the whole
 * of AppDeps, which is built around this store, hence the getter.
 */
export class SqliteSharePublicStore implements SharePublicStore {
  constructor(private readonly deps: () => AppDeps) {}

  async openShare(req: LinkRequest) {
    return openShare(this.deps(), req);
  }

  unlockShare(req: LinkRequest, password: string) {
    return unlockShare(this.deps(), req, password);
  }

  async publicComments(req: LinkRequest, q: ListCommentsInput) {
    return publicComments(this.deps(), req, q);
  }

  async addRecipientComment(req: LinkRequest, body: RecipientCommentInput) {
    return addRecipientComment(this.deps(), req, body);
  }

  async sharedFiles(req: LinkRequest, paths: string[]) {
    return sharedFiles(this.deps(), req, paths);
  }

  async receipt(caller: Caller, shareId: string) {
    const deps = this.deps();
    const facts = readReceiptFacts(deps, caller.workspaceId, shareId);
    return receiptOf(facts, { now: deps.clock.now(), base: linkBase(deps, caller.origin) });
  }

  async receiptCsv(workspaceId: string, shareId: string) {
    return receiptCsv(readMatrixFacts(this.deps(), workspaceId, shareId));
  }
}
