import type { Db } from "@/server/db/database";
import { ApiError } from "@/server/lib/api-error";
import {
  type Attempt,
  type AttemptStore,
  claimAttemptSqlite,
  giveBackAttemptSqlite,
} from "@/server/lib/attempt-limiter";
import { getMember, type MemberRow } from "@/server/modules/members/members.repository";
import { getWorkspace } from "@/server/modules/workspaces/workspaces.repository";
import { type AuthResult, authenticateKey, getKey, type KeyRecord } from "./keys.repository";

/** Who a key speaks for, as the auth middleware set it. */
export interface KeyOwner {
  keyId: string;
  workspaceId: string;
  memberId: string;
}

/** What `GET /v1/auth/key` shows: the key, its workspace and the member who created it. */
export interface KeyInfo {
  key: KeyRecord;
  workspace: { id: string; name: string };
  member: Pick<MemberRow, "id" | "name" | "email" | "role">;
}

/**
 * The per-request access path's port (docs/scale-out.md, Access): an API key's verdict with its
 * last-use bookkeeping, what the key itself is shown, and the password slow-down of the pages
 * without a key. One async call per unit; SQLite's implementation runs today's statements inside
 * the call, PostgreSQL's is access-store.pg.ts, and both answer alike (access-store.test.ts).
 * Keys reach the database only as their SHA-256.
 */
export interface AccessStore extends AttemptStore {
  /**
   * A presented key's verdict (unknown, revoked, expired, creator removed, or the key). A live
   * key's `last_used_at` is written at most once a minute, and a write that fails is no refusal.
   */
  authenticate(key: string, now: number): Promise<AuthResult>;
  /** The key, workspace and member behind an authenticated request. */
  keyInfo(owner: KeyOwner): Promise<KeyInfo>;
}

/** Authentication proved the three exist and are live; a row gone since is the key's end. */
export const keyGone = () =>
  new ApiError(401, "unauthenticated", "This API key is not known", { reason: "unknown" });

/** The embedded engine: the repositories' synchronous statements, inside each call. */
export class SqliteAccessStore implements AccessStore {
  constructor(private readonly db: Db) {}

  async authenticate(key: string, now: number) {
    return authenticateKey(this.db, key, now);
  }

  async keyInfo({ keyId, workspaceId, memberId }: KeyOwner): Promise<KeyInfo> {
    const key = getKey(this.db, keyId);
    const workspace = getWorkspace(this.db, workspaceId);
    const member = getMember(this.db, memberId);
    if (!key || !workspace || !member) throw keyGone();
    const { id, name, email, role } = member;
    return {
      key,
      workspace: { id: workspace.id, name: workspace.name },
      member: { id, name, email, role },
    };
  }

  async claimAttempt(a: Omit<Attempt, "password">, now: number) {
    return claimAttemptSqlite(this.db, a, now);
  }

  async giveBackAttempt(id: number) {
    giveBackAttemptSqlite(this.db, id);
  }
}
