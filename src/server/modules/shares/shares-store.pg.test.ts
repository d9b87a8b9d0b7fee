import { describe, expect, it } from "vitest";
import type { Caller } from "@/server/http/caller";
import { ApiError } from "@/server/lib/api-error";
import { ManualClock } from "@/server/lib/clock";
import { PgEventRecorder } from "@/server/modules/events/events.pg";
import { pgFromSqlite } from "@/server/testing/pg-database";
import { PgSharesStore } from "./shares-store.pg";
import { MEMBER, seedSqlite, T0, WS } from "./shares-store.seed";

const caller: Caller = { workspaceId: WS, memberId: MEMBER, keyId: null, origin: "https://c.test" };
const REEL1 = "1".padStart(64, "0");

// PostgreSQL only: SQLite's BEGIN IMMEDIATE already runs one writer at a time.
describe("share updates and revocations on PostgreSQL from two processes", () => {
  const pools = pgFromSqlite(seedSqlite);

  it("never extends a share once its revocation has committed: each update lands before it or is refused", async () => {
    const { pool, other } = pools();
    const clock = new ManualClock(T0);
    const [one, two] = [pool, other].map(
      (p) =>
        new PgSharesStore(p, clock, new PgEventRecorder(clock), {
          publicUrl: null,
          smtpUrl: null,
        }),
    ) as [PgSharesStore, PgSharesStore];
    const body = { paths: ["Deliveries/cut"], expiresInDays: 7, recipients: [], notify: false };
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await one.createShare(caller, body)).id);
    const held = async () =>
      (await pool.query("SELECT ref_count FROM blobs WHERE sha256 = $1", [REEL1])).rows[0]
        .ref_count as number;
    const before = await held();

    const outcomes = await Promise.all(
      ids.map((id) =>
        Promise.allSettled([
          one.updateShare(caller, id, { expiresInDays: 30 }),
          two.revokeShare(caller, id),
        ]),
      ),
    );

    const { rows } = await pool.query<{ type: string; share_id: string }>(
      `SELECT type, data::json->>'shareId' AS share_id FROM events
       WHERE type IN ('share.extended', 'share.revoked') ORDER BY seq`,
    );
    for (const [i, [update, revoke]] of outcomes.entries()) {
      expect(revoke.status).toBe("fulfilled");
      const order = rows.filter((e) => e.share_id === ids[i]).map((e) => e.type);
      if (update.status === "fulfilled") {
        expect(order).toEqual(["share.extended", "share.revoked"]);
      } else {
        expect(update.reason).toBeInstanceOf(ApiError);
        expect((update.reason as ApiError).details).toMatchObject({
          issues: [{ code: "revoked" }],
        });
        expect(order).toEqual(["share.revoked"]);
      }
    }
    // Each share gave its hold back once.
    expect(await held()).toBe(before - ids.length);
  });
});
