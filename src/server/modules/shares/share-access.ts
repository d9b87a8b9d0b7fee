import type { EventData } from "@/contract/events";
import { SHARE_LINK_PREFIX } from "@/contract/rules";
import { SHARE_ACCESS_TTL_SECONDS } from "@/contract/share-public";
import type { Db } from "@/server/db/database";
import type { AppDeps } from "@/server/deps";
import { ApiError, notFound, validationFailed } from "@/server/lib/api-error";
import { newId, randomBase62 } from "@/server/lib/ids";
import { checkPassword, type Guarded, type PublicPage } from "@/server/lib/public-access";
import { hashSecret } from "@/server/lib/secrets";
import {
  addRecipientFiles,
  countCompletedDownload,
  countRecipientDownload,
  type DownloadFile,
  insertDownload,
  insertPasswordFailure,
  insertView,
} from "./activity.repository";
import { recordDelivery } from "./receipt-matrix";
import {
  filesOf,
  linkByTokenHash,
  recipientById,
  type ShareRow,
  shareByLinkToken,
  shareRow,
  statusOfRow,
} from "./shares.repository";

/*
 * The recipient side of a share, for the recipient page and the data node: resolve a link,
 * check a password (slowed down after repeated wrong tries), and record views and downloads
 * for the receipt.
 */

/** The plain link's token (the share's address, kept in clear) and a personal one (hash kept). */
export const newLinkToken = () => randomBase62(22);
export function issuePersonalToken() {
  const token = randomBase62(32);
  return { token, hash: hashSecret(token) };
}

export const linkUrl = (base: string, token: string) => `${base}${SHARE_LINK_PREFIX}${token}`;

export interface ResolvedLink {
  share: ShareRow;
  /** The recipient whose personal link it is; null for the plain link (anonymous). */
  recipientId: string | null;
}

/** A token of either kind's shape; anything else is looked up nowhere. */
export const isLinkToken = (token: string) => /^[A-Za-z0-9]{22,32}$/.test(token);

/**
 * The share a `/s/{token}` link opens, whatever its status (the page explains expired ones). The
 * plain token of a share made without an open link opens nothing, as an unknown one.
 */
export function resolveShareLink(db: Db, token: string): ResolvedLink | null {
  if (!isLinkToken(token)) return null;
  const plain = shareByLinkToken(db, token);
  if (plain) return plain.open_link ? { share: plain, recipientId: null } : null;
  const link = linkByTokenHash(db, hashSecret(token));
  const share = link && shareRow(db, link.share_id);
  return share ? { share, recipientId: link.recipient_id } : null;
}

/**
 * What the recipient page and the data node check before serving a share's files: that it is
 * active. Otherwise 403 `forbidden` with `details.reason` `share_expired`, `share_revoked` or
 * `share_exhausted` (and `status`), so the page can say which.
 */
export function requireOpenShare(share: ShareRow, now: number) {
  const status = statusOfRow(share, now);
  if (status !== "active")
    throw new ApiError(403, "forbidden", `This share is ${status}`, {
      reason: `share_${status}`,
      status,
    });
}

/** The recipient page's access tokens (lib/public-access.ts), signed with DATA_DIR/share-access.key. */
export const SHARE_PAGE: PublicPage = {
  kind: "share",
  keyFile: "share-access.key",
  ttlSeconds: SHARE_ACCESS_TTL_SECONDS,
};

/** The link's token is in the subject: access bought on one link opens the share on no other. */
export const shareGuard = (link: ResolvedLink, linkToken: string): Guarded => ({
  id: link.share.id,
  passwordHash: link.share.password_hash,
  subject: `${link.share.id}\n${linkToken}`,
});

/** A wrong password as the receipt's timeline keeps it. */
export type PasswordFailure = Parameters<typeof insertPasswordFailure>[1];

/** What a password check needs: the slow-down's tries (the access store), a clock, DATA_DIR. */
export type PasswordDeps = Parameters<typeof checkPassword>[0];

/**
 * Checks a password typed on the recipient page, under the slow-down (lib/public-access.ts:
 * 429 `rate_limited` with `retryAfterSeconds` before the password is even looked at, per
 * address and per share). Each wrong one is logged by `log` (the receipt's timeline shows it):
 * 403 `forbidden`, `details.reason` `wrong_password`.
 */
export function checkSharePasswordWith(
  deps: PasswordDeps,
  a: { share: ShareRow; recipientId: string | null; address: string; password: string },
  log: (f: PasswordFailure) => void | Promise<void>,
): Promise<void> {
  const guarded = { id: a.share.id, passwordHash: a.share.password_hash };
  return checkPassword(deps, SHARE_PAGE, guarded, {
    address: a.address,
    password: a.password,
    onWrong: () =>
      log({
        share_id: a.share.id,
        recipient_id: a.recipientId,
        address: a.address,
        failed_at: deps.clock.now(),
      }),
  });
}

/** The check on SQLite, each wrong password logged in its table. */
export const checkSharePassword = (
  deps: AppDeps,
  a: Parameters<typeof checkSharePasswordWith>[1],
): Promise<void> => checkSharePasswordWith(deps, a, (f) => void insertPasswordFailure(deps.db, f));

/** Someone opened the share's page: counted for the recipient of the link, or as anonymous. */
export function recordShareView(
  deps: AppDeps,
  v: {
    shareId: string;
    recipientId: string | null;
    address: string | null;
    userAgent?: string | null;
  },
) {
  insertView(deps.db, {
    share_id: v.shareId,
    recipient_id: v.recipientId,
    address: v.address,
    user_agent: v.userAgent?.slice(0, 500) ?? null,
    viewed_at: deps.clock.now(),
  });
}

/** One download of (some of) a share's files, as the receiving engine reports it. */
export interface ShareDownloadReport {
  shareId: string;
  /** The recipient of the link used; null for the plain link. */
  recipientId: string | null;
  transferId?: string | null;
  address?: string | null;
  userAgent?: string | null;
  startedAt: number;
  /** null: the download stopped before its last byte (kept on the receipt, never verified). */
  completedAt: number | null;
  /**
   * Each file received: its share path, the bytes received and the SHA-256 the engine computed
   * over those bytes (null when it did not hash them: such a file is not verified).
   */
  files: { path: string; bytes: number; sha256: string | null }[];
}

/**
 * Records a download for the receipt, in one transaction: each file's reported SHA-256 against
 * the share's snapshot, the download verified only when it completed and every file matched.
 * A completed download counts toward maxDownloads, toward its recipient's files, and records
 * `share.downloaded`. A path that is not in the share is refused (`not_in_share`).
 */
export function recordShareDownload(deps: AppDeps, report: ShareDownloadReport) {
  const { db } = deps;
  return db
    .transaction(() => {
      const share = shareRow(db, report.shareId);
      if (!share) throw notFound(`Share ${report.shareId}`, { shareId: report.shareId });
      const recipient = report.recipientId ? recipientById(db, report.recipientId) : null;
      if (report.recipientId && recipient?.share_id !== share.id)
        throw validationFailed("recipientId", "Not a recipient of this share", "not_a_recipient");
      const byPath = new Map(filesOf(db, share.id).map((f) => [f.path, f]));
      const files: DownloadFile[] = report.files.map((f) => {
        const file = byPath.get(f.path);
        if (!file)
          throw validationFailed("files", `"${f.path}" is not in this share`, "not_in_share");
        const reported = f.sha256?.toLowerCase() ?? null;
        return {
          file_idx: file.idx,
          bytes: f.bytes,
          reported_sha256: reported,
          matched: reported === file.sha256 ? 1 : 0,
        };
      });
      const unverified = files.filter((f) => !f.matched).length;
      const completed = report.completedAt !== null;
      const verified = completed && files.length > 0 && unverified === 0;
      const bytes = files.reduce((n, f) => n + f.bytes, 0);
      const id = newId();
      insertDownload(
        db,
        {
          id,
          share_id: share.id,
          recipient_id: recipient?.id ?? null,
          transfer_id: report.transferId ?? null,
          address: report.address ?? null,
          user_agent: report.userAgent?.slice(0, 500) ?? null,
          started_at: report.startedAt,
          completed_at: report.completedAt,
          file_count: files.length,
          bytes,
          verified: verified ? 1 : 0,
          unverified_count: unverified,
        },
        files,
      );
      if (completed) {
        countCompletedDownload(db, share.id, deps.clock.now());
        recordDelivery(db, share, { id, recipientId: recipient?.id ?? null, files });
        if (recipient) {
          const newFiles = addRecipientFiles(
            db,
            recipient.id,
            files.map((f) => f.file_idx),
          );
          countRecipientDownload(db, recipient.id, { at: report.completedAt!, verified, newFiles });
        }
        const data: EventData<"share.downloaded"> = {
          shareId: share.id,
          downloadId: id,
          recipient: recipient?.email ?? null,
          files: files.length,
          bytes,
          verified,
          transferId: report.transferId ?? null,
        };
        deps.events.record(share.workspace_id, "share.downloaded", data);
      }
      return {
        downloadId: id,
        verified,
        unverifiedFiles: report.files.filter((_, i) => !files[i]!.matched).map((f) => f.path),
      };
    })
    .immediate();
}
