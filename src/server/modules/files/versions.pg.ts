import type { FileVersion } from "@/contract/files";
import type { PgClient, PgPool } from "@/server/db/pg/pool";
import type { PgEventRecorder } from "@/server/modules/events/events.pg";
import { ENTRY_COLUMNS, type EntryRow } from "./files.repository";
import { reordered } from "./tree.pg";
import { currentAsVersion, VERSION_COLUMNS, type VersionRow } from "./versions.repository";
import { notAFile, noVersion, toFileVersion } from "./versions.service";

/*
 * A file's kept versions on PostgreSQL (versions.service.ts on SQLite), answering alike
 * (files-store.trash.test.ts). restoreVersionPg runs in PgFilesStore's unit: one transaction
 * under the workspace's lock, its event written last.
 */

export async function listVersionsPg(
  pool: PgPool,
  entry: EntryRow,
  path: string,
): Promise<FileVersion[]> {
  if (!entry.is_file) throw notAFile(path);
  const { rows } = await pool.query<VersionRow>(
    `SELECT ${VERSION_COLUMNS} FROM file_versions WHERE entry_id = $1
     ORDER BY created_at DESC, id DESC`,
    [entry.id],
  );
  return rows.map((v) => toFileVersion(v, entry.path));
}

/**
 * The entry's versions beyond the newest `keep` go and release their blob references, in one
 * statement (keepCurrentAsVersion's loop of deleteVersion and dropBlobRef).
 */
export const DROP_BEYOND = `WITH gone AS (
    DELETE FROM file_versions WHERE id IN (
      SELECT id FROM file_versions WHERE entry_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2)
    RETURNING sha256),
  refs AS (SELECT sha256, count(*) AS n FROM gone GROUP BY sha256)
  UPDATE blobs SET ref_count = blobs.ref_count - refs.n FROM refs WHERE blobs.sha256 = refs.sha256`;

/**
 * restoreVersion: the version's content goes live and the replaced content is kept as the
 * newest version, each with how its bytes are encrypted; blob references change owner.
 */
export async function restoreVersionPg(
  c: PgClient,
  events: PgEventRecorder,
  q: { workspaceId: string; versionId: string; keep: number },
  now: number,
) {
  const { rows: versions } = await c.query<VersionRow & { protection: string | null }>(
    `SELECT ${VERSION_COLUMNS}, protection FROM file_versions WHERE id = $1 AND workspace_id = $2`,
    [q.versionId, q.workspaceId],
  );
  const version = versions[0];
  const entry =
    version &&
    (
      await c.query<EntryRow & { protection: string | null }>(
        `SELECT ${ENTRY_COLUMNS}, protection FROM entries WHERE id = $1`,
        [version.entry_id],
      )
    ).rows[0];
  if (!version || !entry || entry.trash_id !== null) throw noVersion(q.versionId);
  // The revision counter before the blobs' rows: every unit takes its locks in the order
  // workspace, counter, blobs, events, so two units never wait on each other in a cycle.
  if (entry.parent_id !== null) await reordered(c, entry.parent_id);
  await c.query("DELETE FROM file_versions WHERE id = $1", [version.id]);
  // keepCurrentAsVersion, the replaced content keeping its protection (protectNewestVersion).
  await c.query(
    `INSERT INTO file_versions (id, workspace_id, entry_id, sha256, size, mime, created_at, protection)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [...currentAsVersion(entry), entry.protection],
  );
  await c.query(DROP_BEYOND, [entry.id, q.keep]);
  // recountVersions, setProtection and setContent: a statement sees the ones before it.
  await c.query(
    `UPDATE entries SET version_count = (SELECT count(*) FROM file_versions WHERE entry_id = $1),
       protection = $2, sha256 = $3, size = $4, mime = $5, modified_at = $6
     WHERE id = $1`,
    [entry.id, version.protection, version.sha256, version.size, version.mime ?? entry.mime, now],
  );
  return events.write(c, q.workspaceId, "file.version_restored", {
    paths: [entry.path],
    versionId: q.versionId,
  });
}
