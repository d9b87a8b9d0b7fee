import * as entries from "@/server/modules/files/files.repository";
import { moveToTrash } from "@/server/modules/files/trash.service";
import { insertVersion } from "@/server/modules/files/versions.repository";
import { holdBlobs, insertShare } from "@/server/modules/shares/shares.repository";
import { tempSqlite } from "@/server/testing/engine-suites";

/* The data the upkeep store's suites run on, the same rows for either engine (moveRows). */

export const WS = "ws";
export const T0 = Date.parse("2026-04-01T08:00:00Z");
export const DAY = 86_400_000;
export const RETENTION_DAYS = 30;
/** Trashed at T0, due at T0 + 30 days: the first two are folders of two files, then files. */
export const EARLY_TRASH = 12;
/** Trashed at T0 + 20 days: not due when the early ones are. */
export const LATE_TRASH = 3;
/** Shares s0…s5 expiring at T0 + 1 day: s0 was revoked, s1 expired already. */
export const SHARES = 6;
export const SHARE_EXPIRES = T0 + DAY;
/** Events e00…e19, one a day from T0, alternately in two workspaces. */
export const EVENTS = 20;

/**
 * Portal transfers and their uploads still `uploading`: t0 is live, t1 idle since T0, t2 failed,
 * t3 cancelled, t4 idle but not a portal's, t5 never active since T0, t10…t29 failed. u6 on
 * idle t6 was received. Past T0 + 1 hour, u1, u2, u3, u5 and u10…u29 are abandoned.
 */
export const ABANDONED_IDLE = T0 + 3_600_000;
export const ABANDONED = 4 + 20;

export const sha = (i: number) => `${i}`.padStart(64, "0");

/** A migrated SQLite database holding the seed. */
export function seedUpkeep() {
  const seeded = tempSqlite("consign-upkeep-");
  const { db } = seeded;
  db.transaction(() => {
    for (const ws of [WS, "ws2"])
      db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES (?, 'W', 0)").run(ws);
    const root = entries.root(db, WS, T0);
    // Four contents shared between items, and a kept version of each trashed file, so a purge
    // releases several references to one blob.
    const file = (parent: entries.EntryRow, name: string, i: number) => {
      const c = { size: 10 + (i % 4), mime: "text/plain", sha256: sha(i % 4) };
      entries.addBlobRef(db, c.sha256, c.size, T0);
      return entries.insert(db, parent, name, c, T0);
    };
    const versioned = (parent: entries.EntryRow, name: string, i: number) => {
      const entry = file(parent, name, i);
      entries.addBlobRef(db, entry.sha256!, entry.size, T0);
      insertVersion(db, entry);
      return entry;
    };
    const keep = entries.insert(db, root, "keep", null, T0);
    file(keep, "a.txt", 0);
    const trash = (i: number, at: number, name: string) => {
      let top: entries.EntryRow;
      if (i < 2) {
        top = entries.insert(db, root, `dir${i}`, null, T0);
        file(top, "x.txt", i);
        versioned(top, "y.txt", i + 1);
      } else top = versioned(root, name, i);
      moveToTrash(db, top, RETENTION_DAYS, at);
    };
    for (let i = 0; i < EARLY_TRASH; i++) trash(i, T0 + i, `early${i}.txt`);
    for (let i = 0; i < LATE_TRASH; i++) trash(i + 2, T0 + 20 * DAY, `late${i}.txt`);
    for (let i = 0; i < SHARES; i++) {
      const id = `s${i}`;
      insertShare(
        db,
        {
          id,
          workspace_id: WS,
          member_id: null,
          key_id: null,
          title: "keep",
          message: null,
          link_token: `token${i}`.padEnd(22, "x"),
          open_link: 1,
          password_hash: null,
          expires_at: SHARE_EXPIRES,
          max_downloads: null,
          file_count: 1,
          total_bytes: 10,
          items: "[]",
          created_at: T0,
        },
        [{ path: "keep/a.txt", size: 10, sha256: sha(0), mime: "text/plain" }],
      );
      holdBlobs(db, id, 1);
    }
    db.prepare("UPDATE shares SET revoked_at = ? WHERE id = 's0'").run(T0 + 1);
    db.prepare("UPDATE shares SET expired_at = ? WHERE id = 's1'").run(SHARE_EXPIRES);
    seedUploads(db);
    const event = db.prepare(
      "INSERT INTO events (id, workspace_id, type, data, created_at, seq) VALUES (?, ?, 'file.uploaded', '{}', ?, ?)",
    );
    for (let i = 0; i < EVENTS; i++)
      event.run(`e${String(i).padStart(2, "0")}`, i % 2 ? "ws2" : WS, T0 + i * DAY, i + 1);
  })();
  return seeded;
}

function seedUploads(db: ReturnType<typeof tempSqlite>["db"]) {
  db.prepare(
    `INSERT INTO portals (id, workspace_id, slug, title, target_path, require_email, notify_on_upload,
       fields, rules, invite_emails, invite_phones, status, created_at, updated_at)
     VALUES ('p1', ?, 'p1-slug', 'Inbox', 'Incoming', 0, 0, '[]', '{}', '[]', '[]', 'active', ?, ?)`,
  ).run(WS, T0, T0);
  const transfer = db.prepare(
    `INSERT INTO transfers (id, workspace_id, direction, client, engine, status, streams, priority,
       usage_id, paths_count, token_hash, token_expires_at, created_at, updated_at, last_activity_at)
     VALUES (?, ?, 'receive', ?, 'http', ?, 1, 'normal', ?, 1, ?, ?, ?, ?, ?)`,
  );
  const transfers: [string, string, number | null][] = [
    ["portal", "running", T0 + 2 * 3_600_000],
    ["portal", "running", T0],
    ["portal", "failed", T0 + 2 * 3_600_000],
    ["portal", "cancelled", T0 + 2 * 3_600_000],
    ["web", "running", T0],
    ["portal", "running", null],
    ["portal", "running", T0],
  ];
  for (let i = 10; i < 30; i++) transfers[i] = ["portal", "failed", T0];
  transfers.forEach(([client, status, active], i) => {
    transfer.run(`t${i}`, WS, client, status, `use${i}`, `hash${i}`, T0 + DAY, T0, T0, active);
  });
  const upload = db.prepare(
    `INSERT INTO portal_uploads (id, portal_id, workspace_id, transfer_id, fields, folder_path,
       status, spec_status, created_at)
     VALUES (?, 'p1', ?, ?, '{}', ?, ?, 'not_required', ?)`,
  );
  transfers.forEach((_, i) => {
    upload.run(`u${i}`, WS, `t${i}`, `Incoming/${i}`, i === 6 ? "received" : "uploading", T0);
  });
}
