import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attentionScopes } from "@/contract/attention-rules";
import type { Db } from "@/server/db/database";
import { moveRows } from "@/server/db/pg/move-rows";
import { ManualClock } from "@/server/lib/clock";
import { tempSqlite } from "@/server/testing/engine-suites";
import { freshPgDatabase } from "@/server/testing/pg-database";
import { type AttentionStore, SqliteAttentionStore } from "./attention-store";
import { PgAttentionStore } from "./attention-store.pg";

const NOW = Date.parse("2026-06-10T12:00:00Z");
const HOUR = 3_600_000;
const T0 = NOW - 10 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Rows for every section, with the cases where the dialects part: an open-link download (its
 * recipient NULL) cleared by a later one, a disabled endpoint never attempted (NULL last delivery),
 * jobs from both tables, and rows each section must leave out.
 */
function seed(db: Db) {
  const run = (sql: string, ...rows: unknown[][]) => {
    const s = db.prepare(sql);
    for (const r of rows) s.run(...r);
  };
  run(
    "INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)",
    ["ws", "W", T0],
    ["ws2", "X", T0],
  );
  run(
    `INSERT INTO portals (id, workspace_id, slug, title, target_path, require_email, notify_on_upload,
       fields, rules, invite_emails, invite_phones, status, created_at, updated_at, notify_sender)
     VALUES (?, ?, ?, ?, 'Incoming', 0, 0, '[]', '{}', '[]', '[]', 'active', ?, ?, '{}')`,
    ["p1", "ws", "dailies", "Dailies", T0, T0],
    ["p2", "ws2", "other", "Other", T0, T0],
  );
  run(
    `INSERT INTO portal_uploads (id, portal_id, workspace_id, sender_email, sender_name, status,
       file_count, created_at, completed_at, fields, folder_path, spec_status)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '{}', 'Incoming', 'not_required')`,
    ["u1", "p1", "ws", "a@x.test", "Åsa", "received", 3, T0 + 1, T0 + 5],
    ["u2", "p1", "ws", null, null, "pending", null, T0 + 2, null],
    ["u3", "p1", "ws", "b@x.test", null, "approved", 1, T0 + 3, T0 + 4],
    ["u4", "p2", "ws2", "c@x.test", null, "received", 1, T0 + 4, T0 + 6],
  );
  // s1 expires unopened within the window; s2 after it; s3 was viewed; s4 is revoked.
  run(
    `INSERT INTO shares (id, workspace_id, title, link_token, expires_at, view_count, revoked_at,
       file_count, total_bytes, items, created_at, updated_at)
     VALUES (?, 'ws', ?, ?, ?, ?, ?, 1, 10, '[]', ?, ?)`,
    ["s1", "Reel", "t1", NOW + 5 * HOUR, 0, null, T0, T0],
    ["s2", "Grade", "t2", NOW + 100 * HOUR, 0, null, T0, T0],
    ["s3", "Seen", "t3", NOW + 6 * HOUR, 2, null, T0, T0],
    ["s4", "Gone", "t4", NOW + 7 * HOUR, 0, T0, T0, T0],
  );
  run(
    "INSERT INTO share_recipients (id, share_id, email, created_at) VALUES (?, ?, ?, ?)",
    ["r1", "s1", "one@x.test", T0],
    ["r2", "s1", "two@x.test", T0],
    ["r3", "s2", "three@x.test", T0],
  );
  // d1 (r3) failed two files; d2 (open link) failed one, which d3 (open link) matched later.
  run(
    `INSERT INTO share_downloads (id, share_id, recipient_id, started_at, completed_at, file_count,
       bytes, verified, unverified_count) VALUES (?, 's2', ?, ?, ?, 2, 20, ?, ?)`,
    ["d1", "r3", T0 + 10, T0 + 11, 0, 2],
    ["d2", null, T0 + 20, T0 + 21, 0, 1],
    ["d3", null, T0 + 30, T0 + 31, 1, 0],
  );
  run(
    `INSERT INTO share_download_files (download_id, idx, share_id, file_idx, bytes, reported_sha256,
       matched) VALUES (?, ?, 's2', ?, 10, ?, ?)`,
    ["d1", 0, 0, "bad", 0],
    ["d1", 1, 1, "bad", 0],
    ["d2", 0, 0, "bad", 0],
    ["d3", 0, 0, "good", 1],
  );
  // w1 and w2 were disabled by the rule; w3 by a member; h1 is a REST hook.
  run(
    `INSERT INTO webhook_endpoints (id, workspace_id, kind, url, description, events, secret_sealed,
       status, failure_count, last_delivery_at, created_at) VALUES (?, 'ws', ?, ?, ?, '["*"]', 's', ?, ?, ?, ?)`,
    ["w1", "webhook", "https://a.example/", "Main", "disabled", 20, T0 + 5, T0],
    ["w2", "webhook", "https://b.example/", null, "disabled", 25, null, T0],
    ["w3", "webhook", "https://c.example/", null, "disabled", 3, T0 + 9, T0],
    ["h1", "rest_hook", "https://d.example/", null, "disabled", 20, T0 + 9, T0],
  );
  run(
    `INSERT INTO file_operations (id, workspace_id, kind, status, error, finished_at, destination,
       overwrite, files_total, bytes_total, created_at) VALUES (?, 'ws', ?, ?, ?, ?, 'D', 0, 1, 1, ?)`,
    ["f1", "move", "failed", "Disk full", NOW - HOUR, T0],
    ["f2", "copy", "failed", "Old", NOW - 8 * 24 * HOUR, T0],
    ["f3", "copy", "completed", null, NOW - HOUR, T0],
  );
  run(
    `INSERT INTO bulk_jobs (id, workspace_id, action, status, failed, error, finished_at, selection,
       created_at) VALUES (?, 'ws', ?, ?, ?, ?, ?, '[]', ?)`,
    ["b1", "trash", "completed", 2, null, NOW - 2 * HOUR, T0],
    ["b2", "purge", "failed", 0, "Boom", NOW - 3 * HOUR, T0],
    ["b3", "restore", "completed", 0, null, NOW - HOUR, T0],
  );
}

function seeded() {
  const s = tempSqlite("consign-attention-store-");
  seed(s.db);
  return s;
}

function sqliteEngine(): () => AttentionStore {
  let s: ReturnType<typeof seeded>;
  beforeAll(() => {
    s = seeded();
  });
  afterAll(() => s.close());
  return () => new SqliteAttentionStore(s.db, new ManualClock(NOW));
}

function postgresEngine(): () => AttentionStore {
  const pool = freshPgDatabase({ locale: "en-US" });
  beforeAll(async () => {
    const source = seeded();
    await moveRows(source.db, pool());
    source.close();
  });
  return () => new PgAttentionStore(pool(), new ManualClock(NOW));
}

const EVERYTHING = {
  total: 2 + 1 + 1 + 2 + 3,
  uploads: {
    total: 2,
    items: [
      {
        id: "u2",
        portalId: "p1",
        portalTitle: "Dailies",
        senderEmail: null,
        senderName: null,
        status: "pending",
        specStatus: "not_required",
        fileCount: null,
        receivedAt: iso(T0 + 2),
      },
      {
        id: "u1",
        portalId: "p1",
        portalTitle: "Dailies",
        senderEmail: "a@x.test",
        senderName: "Åsa",
        status: "received",
        specStatus: "not_required",
        fileCount: 3,
        receivedAt: iso(T0 + 5),
      },
    ],
  },
  failedDownloads: {
    total: 1,
    items: [
      {
        downloadId: "d1",
        shareId: "s2",
        shareTitle: "Grade",
        recipient: "three@x.test",
        failedFiles: 2,
        completedAt: iso(T0 + 11),
      },
    ],
  },
  expiringShares: {
    total: 1,
    items: [{ shareId: "s1", title: "Reel", expiresAt: iso(NOW + 5 * HOUR), recipients: 2 }],
  },
  disabledEndpoints: {
    total: 2,
    items: [
      {
        webhookId: "w1",
        url: "https://a.example/",
        description: "Main",
        failureCount: 20,
        lastDeliveryAt: iso(T0 + 5),
      },
      {
        webhookId: "w2",
        url: "https://b.example/",
        description: null,
        failureCount: 25,
        lastDeliveryAt: null,
      },
    ],
  },
  failedJobs: {
    total: 3,
    items: [
      {
        jobId: "f1",
        kind: "move",
        status: "failed",
        failedItems: null,
        error: "Disk full",
        finishedAt: iso(NOW - HOUR),
      },
      {
        jobId: "b1",
        kind: "trash",
        status: "completed",
        failedItems: 2,
        error: null,
        finishedAt: iso(NOW - 2 * HOUR),
      },
      {
        jobId: "b2",
        kind: "purge",
        status: "failed",
        failedItems: 0,
        error: "Boom",
        finishedAt: iso(NOW - 3 * HOUR),
      },
    ],
  },
};

describe.each([
  { engine: "SQLite", use: sqliteEngine },
  { engine: "PostgreSQL", use: postgresEngine },
])("the attention store on $engine", ({ use }) => {
  const open = use();

  it("reads every section the scopes allow, in order, with the cases where the dialects part", async () => {
    expect(await open().read("ws", attentionScopes, 5)).toEqual(EVERYTHING);
  });

  it("keeps each section's total beyond the limit, and leaves out the sections no scope reads", async () => {
    const limited = await open().read("ws", attentionScopes, 1);
    expect(limited.total).toBe(EVERYTHING.total);
    expect(limited.failedJobs).toEqual({ total: 3, items: [EVERYTHING.failedJobs.items[0]] });
    expect(limited.disabledEndpoints?.items.map((e) => e.webhookId)).toEqual(["w1"]);
    expect(await open().read("ws", ["webhooks:manage", "files:read"], 5)).toEqual({
      total: 5,
      disabledEndpoints: EVERYTHING.disabledEndpoints,
      failedJobs: EVERYTHING.failedJobs,
    });
    expect(await open().read("ws2", attentionScopes, 5)).toEqual({
      total: 1,
      uploads: { total: 1, items: [expect.objectContaining({ id: "u4", portalTitle: "Other" })] },
      failedDownloads: { total: 0, items: [] },
      expiringShares: { total: 0, items: [] },
      disabledEndpoints: { total: 0, items: [] },
      failedJobs: { total: 0, items: [] },
    });
  });
});
