import { API_KEY_PREFIX } from "@/contract/auth";
import type { Scope } from "@/contract/common";
import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
import { newId, randomBase62 } from "@/server/lib/ids";
import { hashSecret } from "@/server/lib/secrets";
import { getMember } from "@/server/modules/members/members.repository";

export interface KeyRow {
  id: string;
  workspace_id: string;
  member_id: string;
  name: string | null;
  hint: string;
  scopes: string;
  expires_at: number | null;
  revoked_at: number | null;
  created_at: number;
  last_used_at: number | null;
}

export interface KeyRecord {
  id: string;
  workspaceId: string;
  memberId: string;
  name: string | null;
  hint: string;
  scopes: Scope[];
  expiresAt: number | null;
  revokedAt: number | null;
  createdAt: number;
  lastUsedAt: number | null;
}

export const toRecord = (r: KeyRow): KeyRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  memberId: r.member_id,
  name: r.name,
  hint: r.hint,
  scopes: JSON.parse(r.scopes),
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
});

export interface NewKey {
  workspaceId: string;
  memberId: string;
  scopes: Scope[];
  expiresAt: number | null;
  name?: string | null;
}

/** A new key's plaintext (shown once) and its row, which holds only the plaintext's hash. */
export function newKeyRow(input: NewKey, now: number) {
  const key = `${API_KEY_PREFIX}${randomBase62(40)}`;
  const row: KeyRow & { key_hash: string } = {
    id: newId(now),
    workspace_id: input.workspaceId,
    member_id: input.memberId,
    name: input.name ?? null,
    hint: key.slice(-4),
    key_hash: hashSecret(key),
    scopes: JSON.stringify([...new Set(input.scopes)]),
    expires_at: input.expiresAt,
    revoked_at: null,
    created_at: now,
    last_used_at: null,
  };
  return { key, row };
}

/** Creates a key; the plaintext is returned here once and only its hash is stored. */
export function createKey(db: Db, input: NewKey, now: number): { key: string; record: KeyRecord } {
  const { key, row } = newKeyRow(input, now);
  stmt(
    db,
    `INSERT INTO api_keys (id, workspace_id, member_id, name, hint, key_hash, scopes, expires_at, revoked_at, created_at, last_used_at)
     VALUES (@id, @workspace_id, @member_id, @name, @hint, @key_hash, @scopes, @expires_at, @revoked_at, @created_at, @last_used_at)`,
  ).run(row);
  return { key, record: toRecord(row) };
}

export const listKeys = (db: Db, workspaceId: string) =>
  stmt<[string], KeyRow>(db, "SELECT * FROM api_keys WHERE workspace_id = ? ORDER BY created_at")
    .all(workspaceId)
    .map(toRecord);

export const getKey = (db: Db, id: string) => {
  const row = stmt<[string], KeyRow>(db, "SELECT * FROM api_keys WHERE id = ?").get(id);
  return row ? toRecord(row) : undefined;
};

export function revokeKey(db: Db, id: string, now: number): boolean {
  return (
    stmt(db, "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").run(now, id)
      .changes > 0
  );
}

export type AuthResult =
  | { ok: true; key: KeyRecord }
  | { ok: false; reason: "unknown" | "revoked" | "expired" | "creator_removed" };

// Writing last_used_at on every request would make every read a write; once a minute is plenty.
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The verdict on a stored key (spec Authentication), one rule for both engines: `member` is its
 * creator's row, if there is one.
 */
export function keyVerdict(
  row: KeyRow | undefined,
  member: { removed_at: number | null } | undefined,
  now: number,
): AuthResult {
  if (!row) return { ok: false, reason: "unknown" };
  if (row.revoked_at !== null) return { ok: false, reason: "revoked" };
  if (row.expires_at !== null && row.expires_at <= now) return { ok: false, reason: "expired" };
  // Spec rule 4: a key stops working when its creator leaves the workspace.
  if (member?.removed_at !== null) return { ok: false, reason: "creator_removed" };
  return { ok: true, key: toRecord(row) };
}

export const lastUseDue = (key: KeyRecord, now: number) =>
  key.lastUsedAt === null || now - key.lastUsedAt > LAST_USED_RESOLUTION_MS;

export function authenticateKey(db: Db, key: string, now: number): AuthResult {
  const row = stmt<[string], KeyRow>(db, "SELECT * FROM api_keys WHERE key_hash = ?").get(
    hashSecret(key),
  );
  const result = keyVerdict(row, row && getMember(db, row.member_id), now);
  if (result.ok && lastUseDue(result.key, now)) {
    try {
      stmt(db, "UPDATE api_keys SET last_used_at = ? WHERE id = ?").run(now, result.key.id);
    } catch {
      // A database that takes no writes (a full disk) still serves reads; the time is a hint.
    }
  }
  return result;
}
