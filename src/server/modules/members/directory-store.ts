import { type BootstrapResult, bootstrap } from "@/server/bootstrap";
import type { Db } from "@/server/db/database";
import type { Config } from "@/server/env";
import type { Clock } from "@/server/lib/clock";
import {
  createKey,
  getKey,
  type KeyRecord,
  listKeys,
  type NewKey,
  revokeKey,
} from "@/server/modules/auth/keys.repository";
import type { EventRecorder } from "@/server/modules/events/events.repository";
import {
  listWorkspaces,
  type WorkspaceRow,
} from "@/server/modules/workspaces/workspaces.repository";
import {
  addMember,
  findMember,
  listMembers,
  type MemberRow,
  type NewMember,
  removeMember,
} from "./members.repository";

/**
 * Who may act (docs/scale-out.md, Directory): workspaces, members and API keys as the service's
 * first start and the `keys` and `members` CLIs change them, one async call per unit. SQLite's
 * implementation runs today's statements; PostgreSQL's is directory-store.pg.ts; both answer
 * alike, events included (directory-store.test.ts). The per-request key check is AccessStore's.
 */
export interface DirectoryStore {
  /**
   * The first workspace, its first admin and a key with every scope, made once on an empty
   * database however many processes start at once; on a database with one, that workspace.
   * `keepKey: false` (a CLI's first run, whose key nobody would ever see) revokes the key.
   */
  bootstrap(opts: { keepKey: boolean }): Promise<BootstrapResult>;
  workspaces(): Promise<WorkspaceRow[]>;
  /** Active members, oldest first. */
  members(workspaceId: string): Promise<MemberRow[]>;
  /** An active member by id, or by email whatever its ASCII case. */
  findMember(workspaceId: string, idOrEmail: string): Promise<MemberRow | undefined>;
  /** With `member.joined`. */
  addMember(input: NewMember): Promise<MemberRow>;
  /** With `member.removed`; the member's keys stop working at once. */
  removeMember(member: MemberRow): Promise<void>;
  /** The plaintext, returned once; only its hash is stored. */
  createKey(input: NewKey): Promise<{ key: string; record: KeyRecord }>;
  /** Every key of the workspace, revoked ones too, oldest first. */
  keys(workspaceId: string): Promise<KeyRecord[]>;
  key(id: string): Promise<KeyRecord | undefined>;
  /** False when the key was already revoked (or is unknown). */
  revokeKey(id: string): Promise<boolean>;
}

export class SqliteDirectoryStore implements DirectoryStore {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      events: EventRecorder;
      config: Pick<Config, "workspaceName">;
    },
  ) {}

  async bootstrap({ keepKey }: { keepKey: boolean }) {
    const { db, clock } = this.deps;
    // Under the write lock, so that a service and a CLI started at once make one workspace.
    return db
      .transaction(() => {
        const result = bootstrap(this.deps);
        if (result.created && !keepKey) {
          for (const key of listKeys(db, result.workspace.id)) revokeKey(db, key.id, clock.now());
        }
        return result;
      })
      .immediate();
  }

  async workspaces() {
    return listWorkspaces(this.deps.db);
  }

  async members(workspaceId: string) {
    return listMembers(this.deps.db, workspaceId);
  }

  async findMember(workspaceId: string, idOrEmail: string) {
    return findMember(this.deps.db, workspaceId, idOrEmail);
  }

  async addMember(input: NewMember) {
    return addMember(this.deps.db, this.deps.events, input, this.deps.clock.now());
  }

  async removeMember(member: MemberRow) {
    removeMember(this.deps.db, this.deps.events, member, this.deps.clock.now());
  }

  async createKey(input: NewKey) {
    return createKey(this.deps.db, input, this.deps.clock.now());
  }

  async keys(workspaceId: string) {
    return listKeys(this.deps.db, workspaceId);
  }

  async key(id: string) {
    return getKey(this.deps.db, id);
  }

  async revokeKey(id: string) {
    return revokeKey(this.deps.db, id, this.deps.clock.now());
  }
}
