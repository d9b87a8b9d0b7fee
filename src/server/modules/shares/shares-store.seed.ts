import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { DeliveryState } from "@/contract/receipt-verdict";
import { openDatabase } from "@/server/db/database";
import * as entries from "@/server/modules/files/files.repository";
import { holdBlobs, insertRecipient, insertShare, type ShareRow } from "./shares.repository";

/* The data shares-store.test.ts runs its contract on, built the same way for each engine. */

export const WS = "ws";
export const MEMBER = "m1";
const DAY = 86_400_000;
export const T0 = Date.parse("2026-03-01T12:00:00Z");

export const sha = (i: number) => `${i}`.padStart(64, "0");
const content = (i: number, size: number, mime = "video/quicktime") => ({
  size,
  mime,
  sha256: sha(i),
});

/** The comment seeded on the `active` share; reel1.mov is probed to last a minute. */
export const COMMENT = "00icmt00000000000000000001";

/** Seeded shares, by name: their ids sort in this order (the list is newest, i.e. last, first). */
export const SEEDED = {
  active: "00iseed0000000000000000001",
  soon: "00iseed0000000000000000002",
  revoked: "00iseed0000000000000000003",
  expired: "00iseed0000000000000000004",
  exhausted: "00iseed0000000000000000005",
  personal: "00iseed0000000000000000006",
  opened: "00iseed0000000000000000007",
} as const;

type Seeded = Partial<ShareRow> & { recipients?: string[] };

const SHARES: Record<keyof typeof SEEDED, Seeded> = {
  active: { recipients: ["ana@example.com"] },
  soon: { expires_at: T0 + 2 * DAY, title: "Soon" },
  revoked: { revoked_at: T0 - DAY, title: "Revoked" },
  expired: { expires_at: T0 - DAY, expired_at: T0 - DAY, title: "Expired" },
  exhausted: { max_downloads: 1, download_count: 1, verdict: "verified", title: "Done" },
  personal: {
    member_id: null,
    open_link: 0,
    password_hash: "scrypt$seeded",
    recipients: ["bo@example.com", "ana@example.com"],
  },
  opened: { view_count: 3, verdict: "partly_delivered" as DeliveryState, title: "Opened" },
};

/**
 * A migrated SQLite database on a temporary data dir: workspace WS with member MEMBER, a tree
 * (Deliveries/cut/reel1.mov and reel2.mov, Deliveries/notes.txt, an empty folder, a file
 * stored with content protection) seven shares of every status, each holding its files, and a comment.
 */
export function seedSqlite() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-shares-store-"));
  const db = openDatabase(path.join(dir, "consign.db"));
  db.transaction(() => {
    db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES (?, 'Studio Ö', 0)").run(WS);
    db.prepare(
      "INSERT INTO members (id, workspace_id, email, name, role, joined_at) VALUES (?, ?, 'eve@studio.test', 'Eve', 'admin', 0)",
    ).run(MEMBER, WS);
    const root = entries.root(db, WS, T0);
    const file = (parent: entries.EntryRow, name: string, c: ReturnType<typeof content>) => {
      entries.addBlobRef(db, c.sha256, c.size, T0);
      return entries.insert(db, parent, name, c, T0);
    };
    const deliveries = entries.insert(db, root, "Deliveries", null, T0);
    const cut = entries.insert(db, deliveries, "cut", null, T0);
    file(cut, "reel1.mov", content(1, 1000));
    file(cut, "reel2.mov", content(2, 2000));
    file(deliveries, "notes.txt", content(3, 30, "text/plain"));
    entries.insert(db, deliveries, "empty", null, T0);
    const locked = file(root, "locked.bin", content(4, 40, "application/octet-stream"));
    entries.setProtection(db, locked.id, '{"seeded":true}');
    const items = JSON.stringify([
      { path: "Deliveries/cut", type: "folder", sizeBytes: 3000, fileCount: 2 },
    ]);
    Object.entries(SHARES).forEach(([name, s], i) => {
      const id = SEEDED[name as keyof typeof SEEDED];
      insertShare(
        db,
        {
          id,
          workspace_id: WS,
          member_id: s.member_id === undefined ? MEMBER : s.member_id,
          key_id: null,
          title: s.title ?? "cut",
          message: null,
          link_token: `seedToken${i}`.padEnd(22, "x"),
          open_link: s.open_link ?? 1,
          password_hash: s.password_hash ?? null,
          expires_at: s.expires_at ?? T0 + 7 * DAY,
          max_downloads: s.max_downloads ?? null,
          file_count: 2,
          total_bytes: 3000,
          items,
          created_at: T0 - 10 * DAY + i,
        },
        [
          { path: "Deliveries/cut/reel1.mov", ...content(1, 1000) },
          { path: "Deliveries/cut/reel2.mov", ...content(2, 2000) },
        ],
      );
      if (s.revoked_at === undefined) holdBlobs(db, id, 1);
      db.prepare(
        `UPDATE shares SET revoked_at = ?, expired_at = ?, download_count = ?, view_count = ?,
           verdict = ? WHERE id = ?`,
      ).run(
        s.revoked_at ?? null,
        s.expired_at ?? null,
        s.download_count ?? 0,
        s.view_count ?? 0,
        s.verdict ?? "not_delivered",
        id,
      );
      (s.recipients ?? []).forEach((email, n) => {
        insertRecipient(db, { id: `${id}r${n}`, share_id: id, email, created_at: T0 - DAY + n });
      });
    });
    db.prepare(
      "INSERT INTO media_probes (sha256, media, duration_ms, has_audio, probed_at) VALUES (?, 'video', 60000, 1, ?)",
    ).run(sha(1), T0);
    db.prepare(
      `INSERT INTO share_comments (id, share_id, body, author_kind, author_name, author_email, created_at)
       VALUES (?, ?, 'First look', 'recipient', NULL, 'ana@example.com', ?)`,
    ).run(COMMENT, SEEDED.active, T0 - DAY);
    db.prepare("UPDATE shares SET comment_count = 1 WHERE id = ?").run(SEEDED.active);
  })();
  return {
    dir,
    db,
    close() {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
