import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
import { newId } from "@/server/lib/ids";
import type { EventRecorder } from "@/server/modules/events/events.repository";

export interface MemberRow {
  id: string;
  workspace_id: string;
  email: string;
  name: string;
  role: "admin" | "member";
  joined_at: number;
  removed_at: number | null;
}

export const memberView = (m: MemberRow) => ({
  id: m.id,
  email: m.email,
  name: m.name,
  role: m.role,
  joinedAt: new Date(m.joined_at).toISOString(),
});

export interface NewMember {
  workspaceId: string;
  email: string;
  name: string;
  role: "admin" | "member";
}

export const newMemberRow = (input: NewMember, now: number): MemberRow => ({
  id: newId(now),
  workspace_id: input.workspaceId,
  email: input.email.toLowerCase(),
  name: input.name,
  role: input.role,
  joined_at: now,
  removed_at: null,
});

/** What `member.removed` says of a member removed at `now`. */
export const removedView = (member: MemberRow, now: number) => ({
  member: { ...memberView(member), removedAt: new Date(now).toISOString() },
});

/** Adds a member and emits `member.joined` in the same transaction. */
export function addMember(db: Db, events: EventRecorder, input: NewMember, now: number): MemberRow {
  return db.transaction(() => {
    const row = newMemberRow(input, now);
    stmt(
      db,
      `INSERT INTO members (id, workspace_id, email, name, role, joined_at, removed_at)
       VALUES (@id, @workspace_id, @email, @name, @role, @joined_at, @removed_at)`,
    ).run(row);
    events.record(input.workspaceId, "member.joined", { member: memberView(row) });
    return row;
  })();
}

/** Removes a member (their keys stop working at once: every key check reads removed_at) and emits `member.removed`. */
export function removeMember(db: Db, events: EventRecorder, member: MemberRow, now: number) {
  db.transaction(() => {
    stmt(db, "UPDATE members SET removed_at = ? WHERE id = ?").run(now, member.id);
    events.record(member.workspace_id, "member.removed", removedView(member, now));
  })();
}

export const listMembers = (db: Db, workspaceId: string) =>
  stmt<[string], MemberRow>(
    db,
    "SELECT * FROM members WHERE workspace_id = ? AND removed_at IS NULL ORDER BY joined_at, id",
  ).all(workspaceId);

/** An active member by id or email. */
export const findMember = (db: Db, workspaceId: string, idOrEmail: string) =>
  stmt<[string, string, string], MemberRow>(
    db,
    "SELECT * FROM members WHERE workspace_id = ? AND removed_at IS NULL AND (id = ? OR email = lower(?))",
  ).get(workspaceId, idOrEmail, idOrEmail);

export const getMember = (db: Db, id: string) =>
  stmt<[string], MemberRow>(db, "SELECT * FROM members WHERE id = ?").get(id);
