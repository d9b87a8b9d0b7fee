import type { z } from "zod";
import { thumbnailMimeTypes } from "@/contract/rules";
import type { completeDownloadBodySchema, PublicShare } from "@/contract/share-public";
import type { ShareComment } from "@/contract/shares";
import type { AppDeps } from "@/server/deps";
import type { Visitor } from "@/server/http/caller";
import { notFound, validationFailed } from "@/server/lib/api-error";
import { toIso } from "@/server/lib/clock";
import { hasAccess, issueAccess, requireAccess } from "@/server/lib/public-access";
import { thumbnailJpeg } from "@/server/modules/files/thumbnail";
import { countPages, queueRenditions } from "@/server/modules/media/render.service";
import { proxyStatusOf } from "@/server/modules/media/status.service";
import { startTransfer } from "@/server/modules/transfers/start.service";
import { transferRow } from "@/server/modules/transfers/transfers.repository";
import { updateTransfer } from "@/server/modules/transfers/transfers.service";
import { getWorkspace } from "@/server/modules/workspaces/workspaces.repository";
import {
  addComment,
  type CommentAuthor,
  type CommentInput,
  listComments,
} from "./comments.service";
import {
  checkSharePassword,
  type ResolvedLink,
  recordShareDownload,
  recordShareView,
  requireOpenShare,
  resolveShareLink,
  SHARE_PAGE,
  shareGuard,
} from "./share-access";
import {
  fileByPath,
  filesOf,
  type RecipientRow,
  recipientById,
  type ShareFileRow,
  type ShareRow,
  statusOfRow,
} from "./shares.repository";
import type { CommentsPage, ListCommentsInput } from "./shares-store";

/*
 * The recipient page's side of a share. A password-protected share is unlocked once per visit
 * (lib/public-access.ts): the right password buys an access token for the share and the link.
 */

/** What each request of the page has in hand: the link's token and the visitor. */
export interface LinkRequest extends Visitor {
  token: string;
}

function resolve(deps: AppDeps, token: string) {
  const link = resolveShareLink(deps.db, token);
  if (!link) throw notFound("Share link", { reason: "unknown_link" });
  return link;
}

/** An open share's link with access: what every read of content and every write needs. */
function open(deps: AppDeps, req: LinkRequest) {
  const link = resolve(deps, req.token);
  requireOpenShare(link.share, deps.clock.now());
  requireAccess(deps, SHARE_PAGE, shareGuard(link, req.token), req.access);
  return link;
}

/** The named files that are the share's, by path: what a download or a preview starts from. */
export interface SharedFiles {
  share: ShareRow;
  files: Map<string, ShareFileRow>;
}

export function sharedFiles(deps: AppDeps, req: LinkRequest, paths: string[]): SharedFiles {
  const { share } = open(deps, req);
  const files = paths.flatMap((p) => fileByPath(deps.db, share.id, p) ?? []);
  return { share, files: new Map(files.map((f) => [f.path, f])) };
}

/** The file named, as shared; else `not_in_share` at `field`. */
function sharedFile(found: SharedFiles, path: string, field: string) {
  const file = found.files.get(path);
  if (!file) throw validationFailed(field, `"${path}" is not in this share`, "not_in_share");
  return file;
}

/** The page's answer from what either engine read: the files only once unlocked. */
export function publicShareView(
  link: ResolvedLink,
  a: { now: number; unlocked: boolean; workspaceName: string; files: ShareFileRow[] },
): PublicShare {
  const { share } = link;
  return {
    title: share.title,
    message: share.message,
    status: statusOfRow(share, a.now),
    workspaceName: a.workspaceName,
    expiresAt: toIso(share.expires_at),
    passwordRequired: !a.unlocked,
    personal: link.recipientId !== null,
    fileCount: share.file_count,
    totalBytes: share.total_bytes,
    files: a.unlocked ? a.files.map((f) => ({ path: f.path, size: f.size, mime: f.mime })) : null,
  };
}

/** The view a request counts: the page asks once per visit without the header. */
export const countsAsView = (req: LinkRequest) => req.access === undefined;

export function openShare(deps: AppDeps, req: LinkRequest): PublicShare {
  const link = resolve(deps, req.token);
  const { share } = link;
  requireOpenShare(share, deps.clock.now());
  const unlocked = hasAccess(deps, SHARE_PAGE, shareGuard(link, req.token), req.access);
  // Asking again once unlocked is the same visit.
  if (countsAsView(req))
    recordShareView(deps, {
      shareId: share.id,
      recipientId: link.recipientId,
      address: req.address,
      userAgent: req.userAgent,
    });
  return publicShareView(link, {
    now: deps.clock.now(),
    unlocked,
    workspaceName: getWorkspace(deps.db, share.workspace_id)?.name ?? "",
    files: unlocked ? filesOf(deps.db, share.id) : [],
  });
}

export async function unlockShare(deps: AppDeps, req: LinkRequest, password: string) {
  const link = resolve(deps, req.token);
  requireOpenShare(link.share, deps.clock.now());
  await checkSharePassword(deps, { ...link, address: req.address, password });
  return issueAccess(deps, SHARE_PAGE, shareGuard(link, req.token));
}

export async function startDownload(deps: AppDeps, req: LinkRequest, paths: string[]) {
  const unique = [...new Set(paths)];
  const found = await deps.sharePublicStore.sharedFiles(req, unique);
  const { share } = found;
  const files = unique.map((p) => sharedFile(found, p, "paths"));
  const created = startTransfer(
    deps,
    { workspaceId: share.workspace_id, keyId: null, memberId: null, origin: req.origin },
    {
      direction: "receive",
      client: "share",
      shareId: share.id,
      paths: files.map((f) => ({ source: f.path, destination: f.path })),
      totals: { files: files.length, bytes: files.reduce((n, f) => n + f.size, 0) },
    },
  );
  return { transferId: created.transferId, transferSpec: created.transferSpec };
}

/**
 * The engine's report: the transfer completes (the node must have served the bytes) and the
 * download is recorded with the hashes the engine computed, in one transaction.
 */
export function completeDownload(
  deps: AppDeps,
  req: LinkRequest,
  transferId: string,
  body: z.output<typeof completeDownloadBodySchema>,
) {
  const link = open(deps, req);
  const { share } = link;
  const transfer = transferRow(deps.db, transferId);
  if (!transfer || transfer.share_id !== share.id)
    throw notFound(`Transfer ${transferId}`, { transferId });
  if (transfer.status === "completed")
    throw validationFailed("transferId", "This download was reported already", "already_reported");
  const sizes = body.files.map((f) => {
    const file = fileByPath(deps.db, share.id, f.path);
    if (!file) throw validationFailed("files", `"${f.path}" is not in this share`, "not_in_share");
    return file.size;
  });
  const bytesDone = sizes.reduce((n, s) => n + s, 0);
  return deps.db.transaction(() => {
    updateTransfer(deps, share.workspace_id, transfer.id, {
      status: "completed",
      filesDone: body.files.length,
      bytesDone,
    });
    return recordShareDownload(deps, {
      shareId: share.id,
      recipientId: link.recipientId,
      transferId: transfer.id,
      address: req.address,
      userAgent: req.userAgent,
      startedAt: transfer.started_at ?? transfer.created_at,
      completedAt: deps.clock.now(),
      files: body.files.map((f, i) => ({ path: f.path, bytes: sizes[i]!, sha256: f.sha256 })),
    });
  })();
}

/** A link's holder comments: its recipient through a personal link, else anonymous. */
export const linkAuthor = (
  recipient: Pick<RecipientRow, "email"> | undefined,
  name: string | undefined,
): CommentAuthor => ({
  kind: recipient ? "recipient" : "anonymous",
  name: name ?? null,
  email: recipient?.email ?? null,
});

export type RecipientCommentInput = CommentInput & { name?: string };

export function addRecipientComment(
  deps: AppDeps,
  req: LinkRequest,
  body: RecipientCommentInput,
): ShareComment {
  const { share, recipientId } = open(deps, req);
  const recipient = recipientId ? recipientById(deps.db, recipientId) : undefined;
  return addComment(deps, share, linkAuthor(recipient, body.name), {
    body: body.body,
    parentId: body.parentId,
    anchor: body.anchor,
  });
}

/**
 * The thread as a link's holder sees it: a recipient's address shows only on their own
 * comments. A share sent to several clients must not hand each the others' addresses, nor
 * hand them to whoever holds the plain link.
 */
export const redactComments = (page: CommentsPage, own: string | null): CommentsPage => ({
  ...page,
  items: page.items.map((c) =>
    c.author.kind === "recipient" && c.author.email !== own
      ? { ...c, author: { ...c.author, email: null } }
      : c,
  ),
});

export function publicComments(deps: AppDeps, req: LinkRequest, query: ListCommentsInput) {
  const link = open(deps, req);
  const own = link.recipientId ? (recipientById(deps.db, link.recipientId)?.email ?? null) : null;
  return redactComments(listComments(deps, link.share.workspace_id, link.share.id, query), own);
}

/** A thumbnail of one of the share's images, from its snapshot (the files module's rendering). */
export async function shareThumbnail(deps: AppDeps, req: LinkRequest, path: string) {
  const file = sharedFile(await deps.sharePublicStore.sharedFiles(req, [path]), path, "query.path");
  if (!file.mime || !thumbnailMimeTypes.includes(file.mime))
    throw validationFailed(
      "query.path",
      `"${path}" has no thumbnail: only images do`,
      "no_preview",
    );
  return thumbnailJpeg(deps.config.dataDir, deps.files.blobs, file.sha256, path);
}

/**
 * The recipient's preview of one of the share's files: its proxies with signed addresses, from
 * the snapshot's content (a file changed since is previewed as shared). What it still lacks is
 * queued (a PDF's pages render on demand; video and audio were queued as they landed). Not a
 * download: nothing is counted or recorded. Shares refuse protected files, so none is here.
 */
export async function sharePreview(deps: AppDeps, req: LinkRequest, path: string) {
  const found = await deps.sharePublicStore.sharedFiles(req, [path]);
  const { share } = found;
  const file = sharedFile(found, path, "query.path");
  const source = { sha256: file.sha256, mime: file.mime, path: file.path, protected: false };
  const status = proxyStatusOf(deps, source, req.origin);
  if (!status.proxies.some((p) => p.status === "pending")) return status;
  await countPages(deps, source);
  queueRenditions(deps, share.workspace_id, source, false);
  return proxyStatusOf(deps, source, req.origin);
}
