import type { z } from "zod";
import type { EventData } from "@/contract/events";
import { baseName } from "@/contract/rules";
import {
  type CreatedShare,
  type createShareBodySchema,
  SHARE_FILES_MAX,
  type Share,
} from "@/contract/shares";
import type { AppDeps } from "@/server/deps";
import type { Caller } from "@/server/http/caller";
import { notFound, validationFailed } from "@/server/lib/api-error";
import { toIso } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { hashPassword } from "@/server/lib/passwords";
import { byPath } from "@/server/modules/files/files.repository";
import { getWorkspace } from "@/server/modules/workspaces/workspaces.repository";
import { scheduleExpiry } from "./lifecycle.service";
import { issuePersonalToken, linkUrl, newLinkToken } from "./share-access";
import { queueShareMail } from "./share-mail.service";
import {
  holdBlobs,
  insertLink,
  insertRecipient,
  insertShare,
  liveFilesAt,
  type SnapshotFileRow,
  shareById,
} from "./shares.repository";
import { DAY_MS, linkBase, toShare } from "./shares.service";

/**
 * The files the paths name, as they are now: each path must be live (404 with `details.path`);
 * a path inside another listed one is folded into it. At most SHARE_FILES_MAX files
 * (`too_many_files`), at least one (`no_files`), none stored with content protection
 * (`content_protected`: a recipient could not read it without the transfer's password).
 */
function snapshot(deps: AppDeps, workspaceId: string, paths: string[]) {
  const unique = [...new Set(paths)];
  const tops = unique.filter((p) => !unique.some((q) => q !== p && p.startsWith(`${q}/`)));
  const items: Share["items"] = [];
  const files: SnapshotFileRow[] = [];
  for (const p of tops) {
    const entry = byPath(deps.db, workspaceId, p);
    if (!entry) throw notFound(`"${p}"`, { path: p });
    const found = liveFilesAt(deps.db, workspaceId, p, SHARE_FILES_MAX - files.length + 1);
    if (files.length + found.length > SHARE_FILES_MAX)
      throw validationFailed(
        "paths",
        `A share holds at most ${SHARE_FILES_MAX} files`,
        "too_many_files",
        { issue: `more than ${SHARE_FILES_MAX} files`, details: { max: SHARE_FILES_MAX } },
      );
    const locked = found.find((f) => f.protection !== null);
    if (locked)
      throw validationFailed(
        "paths",
        `"${locked.path}" is stored with content protection`,
        "content_protected",
        { issue: "a file is stored with content protection", details: { path: locked.path } },
      );
    files.push(...found);
    items.push({
      path: p,
      type: entry.is_file ? "file" : "folder",
      sizeBytes: found.reduce((n, f) => n + f.size, 0),
      fileCount: found.length,
    });
  }
  if (files.length === 0)
    throw validationFailed("paths", "There is no file to share in these folders", "no_files");
  return { items, files };
}

type CreateInput = z.output<typeof createShareBodySchema>;

/**
 * Stores the share with its snapshot, its hold on the blobs, its recipients' personal links and
 * their mail (the open link only when asked for, or when there is no recipient), schedules its expiry and records `share.created`, all in one transaction. The
 * personal links are in this answer only (and in the mail).
 */
export async function createShare(
  deps: AppDeps,
  caller: Caller,
  body: CreateInput,
): Promise<CreatedShare> {
  const { db, clock } = deps;
  const passwordHash = body.password === undefined ? null : await hashPassword(body.password);
  const base = linkBase(deps, caller.origin);
  const recipients = [...new Set(body.recipients)];
  // Personal links attribute every view and download; a link for anyone only when asked for.
  const openLink = body.openLink ?? recipients.length === 0;
  if (!openLink && recipients.length === 0)
    throw validationFailed("openLink", "A share needs recipients or an open link", "no_link");
  return db
    .transaction((): CreatedShare => {
      const now = clock.now();
      const { items, files } = snapshot(deps, caller.workspaceId, body.paths);
      const id = newId();
      const row = {
        id,
        workspace_id: caller.workspaceId,
        member_id: caller.memberId,
        key_id: caller.keyId,
        title: body.title ?? baseName(items[0]!.path),
        message: body.message?.trim() || null,
        link_token: newLinkToken(),
        open_link: openLink ? 1 : 0,
        password_hash: passwordHash,
        expires_at: now + body.expiresInDays * DAY_MS,
        max_downloads: body.maxDownloads ?? null,
        file_count: files.length,
        total_bytes: files.reduce((n, f) => n + f.size, 0),
        items: JSON.stringify(items),
        created_at: now,
      };
      insertShare(db, row, files);
      holdBlobs(db, id, 1);
      const stored = shareById(db, caller.workspaceId, id)!;
      const workspaceName = getWorkspace(db, caller.workspaceId)?.name ?? "";
      const recipientLinks = recipients.map((email) => {
        const recipientId = newId();
        insertRecipient(db, { id: recipientId, share_id: id, email, created_at: now });
        const { token, hash } = issuePersonalToken();
        insertLink(db, hash, id, recipientId, now);
        const url = linkUrl(base, token);
        if (body.notify)
          queueShareMail(deps, stored, workspaceName, { id: recipientId, email }, url, now);
        return { email, url };
      });
      scheduleExpiry(deps, id, stored.expires_at);
      const data: EventData<"share.created"> = {
        shareId: id,
        title: stored.title,
        items: items.map((i) => ({
          path: i.path,
          sizeBytes: i.sizeBytes,
          type: i.type,
          fileCount: i.fileCount,
        })),
        expiresAt: toIso(stored.expires_at),
        recipients,
        fileCount: stored.file_count,
        totalBytes: stored.total_bytes,
        maxDownloads: stored.max_downloads,
        passwordProtected: passwordHash !== null,
      };
      deps.events.record(caller.workspaceId, "share.created", data);
      return { ...toShare(deps, stored, base), recipientLinks };
    })
    .immediate();
}
