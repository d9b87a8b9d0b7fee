import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";

/* What recipients did with a share: views, downloads and wrong passwords (the receipt's facts). */

export interface DownloadRow {
  id: string;
  share_id: string;
  recipient_id: string | null;
  transfer_id: string | null;
  address: string | null;
  user_agent: string | null;
  started_at: number;
  completed_at: number | null;
  file_count: number;
  bytes: number;
  verified: 0 | 1;
  unverified_count: number;
}

export interface DownloadFile {
  file_idx: number;
  bytes: number;
  reported_sha256: string | null;
  matched: 0 | 1;
}

export function insertDownload(db: Db, row: DownloadRow, files: DownloadFile[]) {
  stmt(
    db,
    `INSERT INTO share_downloads (id, share_id, recipient_id, transfer_id, address, user_agent, started_at,
       completed_at, file_count, bytes, verified, unverified_count)
     VALUES (@id, @share_id, @recipient_id, @transfer_id, @address, @user_agent, @started_at,
       @completed_at, @file_count, @bytes, @verified, @unverified_count)`,
  ).run(row);
  const insert = stmt(
    db,
    `INSERT INTO share_download_files (download_id, idx, share_id, file_idx, bytes, reported_sha256, matched)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const [idx, f] of files.entries())
    insert.run(row.id, idx, row.share_id, f.file_idx, f.bytes, f.reported_sha256, f.matched);
}

export const countCompletedDownload = (db: Db, shareId: string, now: number) =>
  stmt(
    db,
    "UPDATE shares SET download_count = download_count + 1, updated_at = ? WHERE id = ?",
  ).run(now, shareId);

/** Files a recipient completed for the first time; returns how many were new to them. */
export function addRecipientFiles(db: Db, recipientId: string, fileIdxs: number[]) {
  const insert = stmt(
    db,
    "INSERT OR IGNORE INTO share_recipient_files (recipient_id, file_idx) VALUES (?, ?)",
  );
  let added = 0;
  for (const idx of fileIdxs) added += insert.run(recipientId, idx).changes;
  return added;
}

export const countRecipientDownload = (
  db: Db,
  recipientId: string,
  c: { at: number; verified: boolean; newFiles: number },
) =>
  stmt(
    db,
    `UPDATE share_recipients SET downloads = downloads + 1, last_download_at = @at,
       unverified_downloads = unverified_downloads + @unverified, files_downloaded = files_downloaded + @newFiles
     WHERE id = @id`,
  ).run({ id: recipientId, at: c.at, unverified: c.verified ? 0 : 1, newFiles: c.newFiles });

export const downloadsOf = (db: Db, shareId: string) =>
  stmt<[string], DownloadRow>(
    db,
    "SELECT * FROM share_downloads WHERE share_id = ? ORDER BY started_at, id",
  ).all(shareId);

/** The first `limit` files of each of a share's downloads, with their paths, in one read. */
export interface ListedFileRow {
  download_id: string;
  path: string;
  reported_sha256: string | null;
  matched: 0 | 1;
}

export const firstFilesOfDownloads = (db: Db, shareId: string, limit: number) =>
  stmt<[number, string], ListedFileRow>(
    db,
    `SELECT df.download_id, f.path, df.reported_sha256, df.matched
     FROM share_downloads d
     JOIN share_download_files df ON df.download_id = d.id AND df.idx < ?
     JOIN share_files f ON f.share_id = d.share_id AND f.idx = df.file_idx
     WHERE d.share_id = ? ORDER BY df.download_id, df.idx`,
  ).all(limit, shareId);

/** Every file of a share's downloads whose reported SHA-256 was missing or different. */
export interface UnmatchedFileRow {
  download_id: string;
  path: string;
  sha256: string;
  reported_sha256: string | null;
}

export const unmatchedFilesOfDownloads = (db: Db, shareId: string) =>
  stmt<[string], UnmatchedFileRow>(
    db,
    `SELECT df.download_id, f.path, f.sha256, df.reported_sha256
     FROM share_downloads d
     JOIN share_download_files df INDEXED BY share_download_files_unmatched
       ON df.download_id = d.id AND df.matched = 0
     JOIN share_files f ON f.share_id = d.share_id AND f.idx = df.file_idx
     WHERE d.share_id = ? AND d.unverified_count > 0 ORDER BY df.download_id, df.idx`,
  ).all(shareId);

export interface ViewRow {
  recipient_id: string | null;
  address: string | null;
  viewed_at: number;
}

export function insertView(
  db: Db,
  v: {
    share_id: string;
    recipient_id: string | null;
    address: string | null;
    user_agent: string | null;
    viewed_at: number;
  },
) {
  stmt(
    db,
    `INSERT INTO share_views (share_id, recipient_id, address, user_agent, viewed_at)
     VALUES (@share_id, @recipient_id, @address, @user_agent, @viewed_at)`,
  ).run(v);
  stmt(db, "UPDATE shares SET view_count = view_count + 1 WHERE id = ?").run(v.share_id);
  if (v.recipient_id)
    stmt(
      db,
      `UPDATE share_recipients SET views = views + 1, last_viewed_at = @at,
         first_viewed_at = coalesce(first_viewed_at, @at) WHERE id = @id`,
    ).run({ id: v.recipient_id, at: v.viewed_at });
}

export const viewsOf = (db: Db, shareId: string) =>
  stmt<[string], ViewRow>(
    db,
    "SELECT recipient_id, address, viewed_at FROM share_views WHERE share_id = ? ORDER BY viewed_at, id",
  ).all(shareId);

export const insertPasswordFailure = (db: Db, f: FailureRow & { share_id: string }) =>
  stmt(
    db,
    `INSERT INTO share_password_failures (share_id, recipient_id, address, failed_at)
     VALUES (@share_id, @recipient_id, @address, @failed_at)`,
  ).run(f);

export interface FailureRow {
  recipient_id: string | null;
  address: string;
  failed_at: number;
}

export const failuresOf = (db: Db, shareId: string) =>
  stmt<[string], FailureRow>(
    db,
    "SELECT recipient_id, address, failed_at FROM share_password_failures WHERE share_id = ? ORDER BY failed_at, id",
  ).all(shareId);
