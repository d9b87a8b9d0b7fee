import { type PgPool, withPgTransaction } from "@/server/db/pg/pool";
import {
  ATTEMPT_WINDOW_MS,
  type Attempt,
  type Recent,
  refuseWhileSlowed,
} from "@/server/lib/attempt-limiter";
import { hashSecret } from "@/server/lib/secrets";
import type { MemberRow } from "@/server/modules/members/members.repository";
import { type AccessStore, type KeyInfo, type KeyOwner, keyGone } from "./access-store";
import { type AuthResult, type KeyRow, keyVerdict, lastUseDue, toRecord } from "./keys.repository";

type KeyWithMember = KeyRow & { member_found: string | null; member_removed_at: number | null };

type KeyInfoRow = KeyRow & {
  workspace_name: string;
  member_name: string;
  member_email: string;
  member_role: MemberRow["role"];
};

interface TriesRow {
  target_count: number;
  target_at: number | null;
  mine_count: number;
  mine_at: number | null;
}

/**
 * The access path on PostgreSQL (docs/scale-out.md, Access). A request's key costs one
 * statement (the key and its creator's row together), plus the last-use write once a minute.
 * A password try is one transaction under its target's advisory lock: SQLite's BEGIN IMMEDIATE,
 * without which two processes could both read a count under the limit and both take a try.
 */
export class PgAccessStore implements AccessStore {
  constructor(private readonly pool: PgPool) {}

  async authenticate(key: string, now: number): Promise<AuthResult> {
    const { rows } = await this.pool.query<KeyWithMember>(
      `SELECT k.*, m.id AS member_found, m.removed_at AS member_removed_at
       FROM api_keys k LEFT JOIN members m ON m.id = k.member_id WHERE k.key_hash = $1`,
      [hashSecret(key)],
    );
    const row = rows[0];
    const member = row?.member_found ? { removed_at: row.member_removed_at } : undefined;
    const result = keyVerdict(row, member, now);
    if (result.ok && lastUseDue(result.key, now)) {
      await this.pool
        .query("UPDATE api_keys SET last_used_at = $1 WHERE id = $2", [now, result.key.id])
        // The time is a hint: a database that takes no writes still lets the key in.
        .catch(() => {});
    }
    return result;
  }

  async keyInfo({ keyId, workspaceId, memberId }: KeyOwner): Promise<KeyInfo> {
    const { rows } = await this.pool.query<KeyInfoRow>(
      `SELECT k.*, w.name AS workspace_name, m.name AS member_name, m.email AS member_email,
         m.role AS member_role
       FROM api_keys k, workspaces w, members m WHERE k.id = $1 AND w.id = $2 AND m.id = $3`,
      [keyId, workspaceId, memberId],
    );
    const row = rows[0];
    if (!row) throw keyGone();
    return {
      key: toRecord(row),
      workspace: { id: workspaceId, name: row.workspace_name },
      member: {
        id: memberId,
        name: row.member_name,
        email: row.member_email,
        role: row.member_role,
      },
    };
  }

  async claimAttempt(a: Omit<Attempt, "password">, now: number) {
    return withPgTransaction(this.pool, async (c) => {
      // Every claim on a target queues here (its ceiling counts all addresses together).
      await c.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
        `attempts:${a.kind}:${a.target}`,
      ]);
      await c.query("DELETE FROM password_attempts WHERE kind = $1 AND target = $2 AND at < $3", [
        a.kind,
        a.target,
        now - ATTEMPT_WINDOW_MS,
      ]);
      const { rows } = await c.query<TriesRow>(
        `SELECT count(*) AS target_count, min(at) AS target_at,
           count(*) FILTER (WHERE address = $3) AS mine_count,
           max(at) FILTER (WHERE address = $3) AS mine_at
         FROM password_attempts WHERE kind = $1 AND target = $2`,
        [a.kind, a.target, a.address],
      );
      const t = rows[0]!;
      const mine: Recent = { count: t.mine_count, at: t.mine_at };
      refuseWhileSlowed(mine, { count: t.target_count, at: t.target_at }, now);
      const inserted = await c.query<{ id: number }>(
        "INSERT INTO password_attempts (kind, target, address, at) VALUES ($1, $2, $3, $4) RETURNING id",
        [a.kind, a.target, a.address, now],
      );
      return { id: inserted.rows[0]!.id, tries: mine.count };
    });
  }

  async giveBackAttempt(id: number) {
    await this.pool.query("DELETE FROM password_attempts WHERE id = $1", [id]);
  }
}
