import type { BootstrapResult } from "@/server/bootstrap";
import { firstAdmin, firstKey } from "@/server/bootstrap";
import { insertRowPg } from "@/server/db/pg/insert-row";
import { type PgPool, withPgTransaction } from "@/server/db/pg/pool";
import type { Config } from "@/server/env";
import type { Clock } from "@/server/lib/clock";
import {
  type KeyRow,
  type NewKey,
  newKeyRow,
  toRecord,
} from "@/server/modules/auth/keys.repository";
import type { PgEventRecorder } from "@/server/modules/events/events.pg";
import {
  newWorkspaceRow,
  type WorkspaceRow,
} from "@/server/modules/workspaces/workspaces.repository";
import type { DirectoryStore } from "./directory-store";
import {
  type MemberRow,
  memberView,
  type NewMember,
  newMemberRow,
  removedView,
} from "./members.repository";

const FIRST_WORKSPACE = "SELECT * FROM workspaces ORDER BY created_at, id LIMIT 1";

/**
 * The directory on PostgreSQL: single statements, and transactions where a unit writes an event
 * (written last, as PgEventRecorder asks). The first start takes an advisory lock on the database, so
 * processes started together make one workspace (SQLite's BEGIN IMMEDIATE).
 */
export class PgDirectoryStore implements DirectoryStore {
  constructor(
    private readonly pool: PgPool,
    private readonly clock: Clock,
    private readonly events: PgEventRecorder,
    private readonly config: Pick<Config, "workspaceName">,
  ) {}

  async bootstrap({ keepKey }: { keepKey: boolean }): Promise<BootstrapResult> {
    const existing = (await this.pool.query<WorkspaceRow>(FIRST_WORKSPACE)).rows[0];
    if (existing) return { created: false, workspace: existing };
    const { result, announced } = await withPgTransaction(this.pool, async (c) => {
      await c.query("SELECT pg_advisory_xact_lock(hashtextextended('consign:bootstrap', 0))");
      const made = (await c.query<WorkspaceRow>(FIRST_WORKSPACE)).rows[0];
      if (made) return { result: { created: false as const, workspace: made }, announced: null };
      const now = this.clock.now();
      const workspace = newWorkspaceRow(this.config.workspaceName, now);
      await insertRowPg(c, "workspaces", workspace);
      const admin = newMemberRow(firstAdmin(workspace.id), now);
      await insertRowPg(c, "members", admin);
      const { key, row } = newKeyRow(firstKey(workspace.id, admin.id), now);
      await insertRowPg(c, "api_keys", keepKey ? row : { ...row, revoked_at: now });
      const announced = await this.events.write(c, workspace.id, "member.joined", {
        member: memberView(admin),
      });
      return { result: { created: true as const, workspace, adminKey: key }, announced };
    });
    if (announced) this.events.announce(announced);
    return result;
  }

  async workspaces() {
    return (await this.pool.query<WorkspaceRow>("SELECT * FROM workspaces ORDER BY created_at"))
      .rows;
  }

  async members(workspaceId: string) {
    const { rows } = await this.pool.query<MemberRow>(
      `SELECT * FROM members WHERE workspace_id = $1 AND removed_at IS NULL
       ORDER BY joined_at, id`,
      [workspaceId],
    );
    return rows;
  }

  async findMember(workspaceId: string, idOrEmail: string) {
    // lower() under "C" folds ASCII only, as SQLite's does.
    const { rows } = await this.pool.query<MemberRow>(
      `SELECT * FROM members WHERE workspace_id = $1 AND removed_at IS NULL
       AND (id = $2 OR email = lower($2::text COLLATE "C"))`,
      [workspaceId, idOrEmail],
    );
    return rows[0];
  }

  async addMember(input: NewMember) {
    const row = newMemberRow(input, this.clock.now());
    const announced = await withPgTransaction(this.pool, async (c) => {
      await insertRowPg(c, "members", row);
      return this.events.write(c, input.workspaceId, "member.joined", { member: memberView(row) });
    });
    this.events.announce(announced);
    return row;
  }

  async removeMember(member: MemberRow) {
    const now = this.clock.now();
    const announced = await withPgTransaction(this.pool, async (c) => {
      await c.query("UPDATE members SET removed_at = $1 WHERE id = $2", [now, member.id]);
      return this.events.write(c, member.workspace_id, "member.removed", removedView(member, now));
    });
    this.events.announce(announced);
  }

  async createKey(input: NewKey) {
    const { key, row } = newKeyRow(input, this.clock.now());
    await insertRowPg(this.pool, "api_keys", row);
    return { key, record: toRecord(row) };
  }

  async keys(workspaceId: string) {
    const { rows } = await this.pool.query<KeyRow>(
      "SELECT * FROM api_keys WHERE workspace_id = $1 ORDER BY created_at",
      [workspaceId],
    );
    return rows.map(toRecord);
  }

  async key(id: string) {
    const row = (await this.pool.query<KeyRow>("SELECT * FROM api_keys WHERE id = $1", [id]))
      .rows[0];
    return row ? toRecord(row) : undefined;
  }

  async revokeKey(id: string) {
    const { rowCount } = await this.pool.query(
      "UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL",
      [this.clock.now(), id],
    );
    return (rowCount ?? 0) > 0;
  }
}
