import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UPLOAD_NOTES_MAX } from "@/contract/portal-rules";
import { moveRows } from "@/server/db/pg/move-rows";
import { createPgPool, type PgPool } from "@/server/db/pg/pool";
import type { Caller } from "@/server/http/caller";
import type { ApiError } from "@/server/lib/api-error";
import { ManualClock } from "@/server/lib/clock";
import { createPgDatabase, pgFromSqlite } from "@/server/testing/pg-database";
import type { PortalsStore } from "./portals-store";
import { pgStore, REVIEWER, seedPortals, T0, tempDir, UPLOADS, WS } from "./portals-store.seed";

const caller: Caller = {
  workspaceId: WS,
  keyId: "k1",
  memberId: REVIEWER,
  origin: "https://c.test",
};
/** The seed's uploads of the portal with an approved folder that wait for a decision. */
const WAITING = UPLOADS.filter(
  (u) => u.portalId === "p1" && (u.status === "received" || u.status === "pending"),
);

// PostgreSQL only: SQLite's BEGIN IMMEDIATE already runs one decision at a time.
describe("two reviewers deciding the same upload at once, from two processes", () => {
  let db: Awaited<ReturnType<typeof createPgDatabase>>;
  let other: PgPool;
  let dir: string;
  beforeAll(async () => {
    db = await createPgDatabase();
    other = createPgPool(db.url);
    dir = tempDir();
    const source = seedPortals();
    await moveRows(source.deps.db, db.pool);
    source.close();
  });
  afterAll(async () => {
    await other.end();
    await db.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("moves each folder once: one approval wins, the other is answered as SQLite answers a second one", async () => {
    const clock = new ManualClock(T0 + 60_000);
    const stores: PortalsStore[] = [db.pool, other].map((p) => pgStore(p, clock, dir));
    expect(WAITING.length).toBeGreaterThanOrEqual(5);
    const pairs = await Promise.all(
      WAITING.map((u) =>
        Promise.allSettled(
          stores.map((s) => s.reviewUpload(caller, "p1", u.id, { decision: "approved" })),
        ),
      ),
    );
    for (const pair of pairs) {
      const answers = pair.map((o) => {
        if (o.status === "rejected") throw o.reason;
        return o.value;
      });
      // Deciding again replaces the decision (the console's undo): SQLite answers the second
      // approval 200, with the folder where the first put it and no second move.
      expect(answers.map((a) => a.status)).toEqual(["approved", "approved"]);
      expect(answers[0]!.folderPath).toBe(answers[1]!.folderPath);
      expect(answers[0]!.folderPath.startsWith("Approved/")).toBe(true);
    }
    const { rows: events } = await db.pool.query<{ data: string }>(
      "SELECT data FROM events WHERE type = 'portal.upload.reviewed' ORDER BY seq",
    );
    const previous = new Map<string, string[]>();
    for (const e of events.map((r) => JSON.parse(r.data))) {
      previous.set(e.uploadId, [...(previous.get(e.uploadId) ?? []), e.previousStatus]);
    }
    for (const u of WAITING) expect(previous.get(u.id)).toEqual([u.status, "approved"]);
    const counts = await db.pool.query<{ ops: number; jobs: number; approved: number }>(
      `SELECT (SELECT count(*) FROM file_operations WHERE status = 'queued') AS ops,
         (SELECT count(*) FROM jobs WHERE kind = 'files.operation') AS jobs,
         (SELECT count(*) FROM entries WHERE path = 'Approved' AND trash_id IS NULL) AS approved`,
    );
    expect(counts.rows[0]).toEqual({ ops: WAITING.length, jobs: WAITING.length, approved: 1 });
  });
});

describe("notes added to one upload at once, from two processes, near the limit", () => {
  const pools = pgFromSqlite(() => {
    const { deps, close } = seedPortals();
    return { db: deps.db, close };
  });
  let dir: string;
  beforeAll(() => {
    dir = tempDir();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("keeps the limit: two of six adds for the last two places are taken, the others refused", async () => {
    const { pool, other } = pools();
    const left = 2;
    await pool.query(
      `INSERT INTO portal_upload_notes (id, upload_id, body, member_id, created_at)
       SELECT 'n' || lpad(i::text, 4, '0'), 'u01', 'old', $1, $2
       FROM generate_series(1, $3::int) AS i`,
      [REVIEWER, T0, UPLOAD_NOTES_MAX - left],
    );
    const clock = new ManualClock(T0 + 60_000);
    const stores = [pool, other].map((p) => pgStore(p, clock, dir));
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        stores[i % 2]!.addUploadNote(caller, "u01", { body: `new ${i}` }),
      ),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(left);
    const refused = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason] : []));
    expect(refused.map((r: ApiError) => [r.status, r.details])).toEqual(
      Array(6 - left).fill([409, { reason: "too_many_notes", limit: UPLOAD_NOTES_MAX }]),
    );
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*) AS n FROM portal_upload_notes WHERE upload_id = 'u01'",
    );
    expect(rows[0]!.n).toBe(UPLOAD_NOTES_MAX);
  });
});
