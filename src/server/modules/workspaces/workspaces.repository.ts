import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
import { newId } from "@/server/lib/ids";

export interface WorkspaceRow {
  id: string;
  name: string;
  created_at: number;
}

export const newWorkspaceRow = (name: string, now: number): WorkspaceRow => ({
  id: newId(now),
  name,
  created_at: now,
});

export function createWorkspace(db: Db, name: string, now: number): WorkspaceRow {
  const row = newWorkspaceRow(name, now);
  stmt(db, "INSERT INTO workspaces (id, name, created_at) VALUES (@id, @name, @created_at)").run(
    row,
  );
  return row;
}

export const listWorkspaces = (db: Db) =>
  stmt<[], WorkspaceRow>(db, "SELECT * FROM workspaces ORDER BY created_at").all();

export const getWorkspace = (db: Db, id: string) =>
  stmt<[string], WorkspaceRow>(db, "SELECT * FROM workspaces WHERE id = ?").get(id);
