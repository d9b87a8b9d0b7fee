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
  type NewShare,
  type ShareRow,
  type SnapshotFileRow,
  shareById,
} from "./shares.repository";
import { DAY_MS, linkBase, toShare } from "./shares.service";

/*
 * A share's making, in pieces both engines run: the snapshot's rules, the row, the event. The
 * reads and writes between them are SQLite's here and PostgreSQL's in shares-store.pg.ts.
 */

/** The files the paths name, gathered path by path (addToSnapshot), checked at the end. */
export interface Snapshot {
  items: Share["items"];
  files: SnapshotFileRow[];
}

/** The paths to read, each once; a path inside another listed one is folded into it. */
export function snapshotPaths(paths: string[]) {
  const unique = [...new Set(paths)];
  return unique.filter((p) => !unique.some((q) => q !== p && p.startsWith(`${q}/`)));
}

/** How many files to read at the next path: one past what may still fit, to see an overflow. */
export const snapshotRoom = (s: Snapshot) => SHARE_FILES_MAX - s.files.length + 1;

/**
 * Adds the files at `p` as they are now: it must be live (404 with `details.path`); at most
 * SHARE_FILES_MAX files in all (`too_many_files`), none stored with content protection
 * (`content_protected`: a recipient could not read it without the transfer's password).
 */
export function addToSnapshot(
  s: Snapshot,
  p: string,
  entry: { is_file: number } | undefined,
  found: SnapshotFileRow[],
) {
  if (!entry) throw notFound(`"${p}"`, { path: p });
  if (s.files.length + found.length > SHARE_FILES_MAX)
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
  s.files.push(...found);
  s.items.push({
    path: p,
    type: entry.is_file ? "file" : "folder",
    sizeBytes: found.reduce((n, f) => n + f.size, 0),
    fileCount: found.length,
  });
}

/** At least one file (`no_files`). */
export function checkSnapshot(s: Snapshot) {
  if (s.files.length === 0)
    throw validationFailed("paths", "There is no file to share in these folders", "no_files");
  return s;
}

function snapshot(deps: AppDeps, workspaceId: string, paths: string[]) {
  const s: Snapshot = { items: [], files: [] };
  for (const p of snapshotPaths(paths)) {
    const entry = byPath(deps.db, workspaceId, p);
    addToSnapshot(s, p, entry, entry ? liveFilesAt(deps.db, workspaceId, p, snapshotRoom(s)) : []);
  }
  return checkSnapshot(s);
}

export type CreateInput = z.output<typeof createShareBodySchema>;

/**
 * What is settled before the transaction: the password's hash (slow on purpose), the
 * recipients, each once, and whether there is an open link. Personal links attribute every
 * view and download; a link for anyone only when asked for, or when there is no recipient.
 */
export async function createPlan(body: CreateInput) {
  const passwordHash = body.password === undefined ? null : await hashPassword(body.password);
  const recipients = [...new Set(body.recipients)];
  const openLink = body.openLink ?? recipients.length === 0;
  if (!openLink && recipients.length === 0)
    throw validationFailed("openLink", "A share needs recipients or an open link", "no_link");
  return { passwordHash, recipients, openLink };
}
export type CreatePlan = Awaited<ReturnType<typeof createPlan>>;

export function newShareRow(
  caller: Caller,
  body: CreateInput,
  plan: CreatePlan,
  { items, files }: Snapshot,
  now: number,
): NewShare {
  return {
    id: newId(),
    workspace_id: caller.workspaceId,
    member_id: caller.memberId,
    key_id: caller.keyId,
    title: body.title ?? baseName(items[0]!.path),
    message: body.message?.trim() || null,
    link_token: newLinkToken(),
    open_link: plan.openLink ? 1 : 0,
    password_hash: plan.passwordHash,
    expires_at: now + body.expiresInDays * DAY_MS,
    max_downloads: body.maxDownloads ?? null,
    file_count: files.length,
    total_bytes: files.reduce((n, f) => n + f.size, 0),
    items: JSON.stringify(items),
    created_at: now,
  };
}

export const createdEvent = (
  stored: ShareRow,
  items: Share["items"],
  recipients: string[],
): EventData<"share.created"> => ({
  shareId: stored.id,
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
  passwordProtected: stored.password_hash !== null,
});

/**
 * Stores the share with its snapshot, its hold on the blobs, its recipients' personal links and
 * their mail, schedules its expiry and records `share.created`, all in one transaction. The
 * personal links are in this answer only (and in the mail).
 */
export async function createShare(
  deps: AppDeps,
  caller: Caller,
  body: CreateInput,
): Promise<CreatedShare> {
  const { db, clock } = deps;
  const plan = await createPlan(body);
  const base = linkBase(deps, caller.origin);
  return db
    .transaction((): CreatedShare => {
      const now = clock.now();
      const snap = snapshot(deps, caller.workspaceId, body.paths);
      const row = newShareRow(caller, body, plan, snap, now);
      insertShare(db, row, snap.files);
      holdBlobs(db, row.id, 1);
      const stored = shareById(db, caller.workspaceId, row.id)!;
      const workspaceName = getWorkspace(db, caller.workspaceId)?.name ?? "";
      const recipientLinks = plan.recipients.map((email) => {
        const recipientId = newId();
        insertRecipient(db, { id: recipientId, share_id: row.id, email, created_at: now });
        const { token, hash } = issuePersonalToken();
        insertLink(db, hash, row.id, recipientId, now);
        const url = linkUrl(base, token);
        if (body.notify)
          queueShareMail(deps, stored, workspaceName, { id: recipientId, email }, url, now);
        return { email, url };
      });
      scheduleExpiry(deps, row.id, stored.expires_at);
      const data = createdEvent(stored, snap.items, plan.recipients);
      deps.events.record(caller.workspaceId, "share.created", data);
      return { ...toShare(deps, stored, base), recipientLinks };
    })
    .immediate();
}
