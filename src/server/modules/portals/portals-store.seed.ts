import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PortalUploadStatus } from "@/contract/portal-rules";
import type { PgPool } from "@/server/db/pg/pool";
import { createDeps } from "@/server/deps";
import { testConfig } from "@/server/env";
import { type Clock, ManualClock } from "@/server/lib/clock";
import { createLogger } from "@/server/lib/logger";
import { PgEventRecorder } from "@/server/modules/events/events.pg";
import * as entries from "@/server/modules/files/files.repository";
import { JobRunner } from "@/server/workers/job-runner";
import { PgJobQueue } from "@/server/workers/jobs.pg";
import { insertPortal, insertUpload, markReceived } from "./portals.repository";
import { PgPortalsStore } from "./portals-store.pg";
import { recordReview, setFolderPath } from "./upload-review.repository";

/* The data portals-store.test.ts runs its contract on, built the same way for each engine. */

export const WS = "ws";
export const T0 = Date.parse("2026-03-01T00:00:00Z");
export const REVIEWER = "m-rita";

/** Portals: approving moves into Approved (P1), nowhere (P2), into the folder it is in (P3). */
export const PORTALS = [
  { id: "p1", title: "Dailies", approved: "Approved", notify: { approved: true, rejected: true } },
  { id: "p2", title: "Édition 100%", approved: null, notify: { approved: false, rejected: true } },
  {
    id: "p3",
    title: "Same_Place",
    approved: "Incoming",
    notify: { approved: false, rejected: false },
  },
  { id: "p4", title: "Gone", approved: null, notify: { approved: false, rejected: false } },
];

const STATUSES: PortalUploadStatus[] = [
  "received",
  "pending",
  "uploading",
  "received",
  "rejected",
  "failed",
  "approved",
];
const NAMES = ["Ann", "ÉLODIE", "élodie", "bob_smith", "Carl 100%", null, "Zoë"];

/** Uploads u01…u40: portal, status and sender cycle, so every filter finds a mix. */
export const UPLOADS = Array.from({ length: 40 }, (_, i) => {
  const n = i + 1;
  const name = NAMES[i % NAMES.length] ?? null;
  return {
    id: `u${String(n).padStart(2, "0")}`,
    portalId: PORTALS[i % 3]!.id, // p4 (revoked) has none
    status: STATUSES[i % STATUSES.length]!,
    name,
    email:
      i % 5 === 4
        ? null
        : `${(name ?? "anon").replace(/[^A-Za-z]/g, "").toLowerCase() || "x"}${n}@Example.com`,
    folder: `Incoming/${n} ${name ?? "anon"}`,
  };
});

/**
 * Approved uploads whose move ran (seeded as its worker leaves it): u41 can go back, u42 cannot
 * (a folder now stands where it came from).
 */
export const MOVED = [
  { id: "u41", from: "Incoming/41 done", at: "Approved/41 done", job: "op41" },
  { id: "u42", from: "Incoming/42 taken", at: "Approved/42 taken", job: "op42" },
];

/** A migrated SQLite install holding WS, its portals, uploads and their folders. */
export function seedPortals(clock: Clock = new ManualClock(T0)) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-portals-store-"));
  const deps = createDeps(testConfig(dir), { clock, log: createLogger("error") });
  const { db } = deps;
  db.transaction(() => {
    db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES (?, 'Studio Ö', 0)").run(WS);
    db.prepare(
      "INSERT INTO members (id, workspace_id, email, name, role, joined_at) VALUES (?, ?, 'rita@x.test', 'Rita', 'admin', 0)",
    ).run(REVIEWER, WS);
    const root = entries.root(db, WS, T0);
    const folders = new Map<string, entries.EntryRow>([["", root]]);
    const folder = (p: string): entries.EntryRow => {
      const found = folders.get(p);
      if (found) return found;
      const made = entries.insert(db, folder(entries.parentOf(p)), entries.baseName(p), null, T0);
      folders.set(p, made);
      return made;
    };
    const file = (p: string, i: number) =>
      entries.insert(
        db,
        folder(entries.parentOf(p)),
        entries.baseName(p),
        {
          size: 100 + i,
          mime: "text/plain",
          sha256: `${i}`.padStart(64, "0"),
        },
        T0,
      );
    PORTALS.forEach((p, i) => {
      insertPortal(db, {
        id: p.id,
        workspace_id: WS,
        member_id: REVIEWER,
        key_id: null,
        slug: `${p.id}-slug`,
        title: p.title,
        message: null,
        target_path: "Incoming",
        require_email: 0,
        password_hash: null,
        max_bytes_per_upload: null,
        expires_at: i === 1 ? T0 - 1 : null,
        notify_on_upload: 0,
        project_id: null,
        due_at: null,
        fields: "[]",
        rules: JSON.stringify({ allowedExtensions: [], maxFiles: null, namePattern: null }),
        spec: null,
        approved_path: p.approved,
        notify_sender: JSON.stringify(p.notify),
        invite_emails: "[]",
        invite_phones: "[]",
        status: p.id === "p4" ? "revoked" : "active",
        created_at: T0,
      });
    });
    const land = (
      u: {
        id: string;
        portalId: string;
        folder: string;
        name: string | null;
        email: string | null;
      },
      i: number,
      status: PortalUploadStatus,
    ) => {
      insertUpload(db, {
        id: u.id,
        portal_id: u.portalId,
        workspace_id: WS,
        transfer_id: null,
        sender_email: u.email,
        sender_name: u.name,
        message: null,
        fields: "{}",
        folder_path: u.folder,
        file_count: 2,
        bytes_total: 201 + 2 * i,
        spec_status: "not_required",
        created_at: T0 + i,
      });
      if (status === "uploading") return;
      if (status === "failed") {
        db.prepare("UPDATE portal_uploads SET status = 'failed' WHERE id = ?").run(u.id);
        return;
      }
      file(`${u.folder}/a.txt`, i);
      file(`${u.folder}/sub/b.txt`, i + 1000);
      const shown = [`${u.folder}/a.txt`, `${u.folder}/sub/b.txt`].map((p, k) => ({
        path: p,
        size: 100 + i + k * 1000,
        mime: "text/plain",
      }));
      markReceived(db, u.id, {
        fileCount: 2,
        bytes: 201 + 2 * i,
        filesShown: JSON.stringify(shown),
        specStatus: "not_required",
        now: T0 + i,
      });
      if (status !== "received")
        recordReview(db, u.id, {
          status,
          note: `was ${status}`,
          noteToSender: null,
          memberId: REVIEWER,
          now: T0 + i,
        });
    };
    for (const [i, u] of UPLOADS.entries()) land(u, i, u.status);
    MOVED.forEach((m, k) => {
      const i = 41 + k;
      land(
        { id: m.id, portalId: "p1", folder: m.from, name: "Mover", email: `mover${i}@x.test` },
        i,
        "approved",
      );
      // The move ran: the folder is in Approved, the job completed with its one item done.
      db.prepare(
        `UPDATE entries SET path = replace(path, ?, ?) WHERE workspace_id = ? AND (path = ? OR path LIKE ?)`,
      ).run(m.from, m.at, WS, m.from, `${m.from}/%`);
      folders.delete(m.from);
      folders.delete(`${m.from}/sub`);
      const moved = entries.byPath(db, WS, m.at)!;
      const dest = folder("Approved");
      db.prepare("UPDATE entries SET parent_id = ? WHERE id = ?").run(dest.id, moved.id);
      db.prepare(
        `INSERT INTO file_operations (id, workspace_id, kind, status, destination, overwrite, files_total, bytes_total, files_done, bytes_done, created_at, started_at, finished_at)
         VALUES (?, ?, 'move', 'completed', 'Approved', 0, 2, 10, 2, 10, ?, ?, ?)`,
      ).run(m.job, WS, T0, T0, T0);
      db.prepare(
        `INSERT INTO file_operation_items (operation_id, idx, path, is_file, files, bytes, choice, status, destination_path)
         VALUES (?, 0, ?, 0, 2, 10, 'keepBoth', 'done', ?)`,
      ).run(m.job, m.from, m.at);
      setFolderPath(db, m.id, m.at, JSON.stringify([]), { from: m.from, jobId: m.job });
    });
    folder("Incoming/42 taken");
  })();
  return {
    deps,
    close() {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A data dir for a PostgreSQL store (its status-page key lives there). */
export const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "consign-portals-pg-"));

/** The PostgreSQL store as the tests run it, its jobs going to the same database. */
export function pgStore(pool: PgPool, clock: ManualClock, dir: string) {
  const log = createLogger("error");
  return new PgPortalsStore({
    pool,
    clock,
    events: new PgEventRecorder(clock),
    config: testConfig(dir),
    jobs: new JobRunner(new PgJobQueue(pool), clock, log),
  });
}

export { refusal as caught } from "@/server/testing/engine-suites";
