import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";

export interface LogoRow {
  workspace_id: string;
  png: Buffer;
  width: number;
  height: number;
  updated_at: number;
}

export const getLogo = (db: Db, workspaceId: string) =>
  stmt<[string], LogoRow>(db, "SELECT * FROM workspace_logos WHERE workspace_id = ?").get(
    workspaceId,
  );

export const putLogo = (db: Db, row: LogoRow) =>
  stmt(
    db,
    `INSERT INTO workspace_logos (workspace_id, png, width, height, updated_at)
     VALUES (@workspace_id, @png, @width, @height, @updated_at)
     ON CONFLICT (workspace_id) DO UPDATE SET
       png = excluded.png, width = excluded.width, height = excluded.height,
       updated_at = excluded.updated_at`,
  ).run(row);

export const deleteLogo = (db: Db, workspaceId: string) =>
  stmt(db, "DELETE FROM workspace_logos WHERE workspace_id = ?").run(workspaceId).changes > 0;

export const renameWorkspace = (db: Db, workspaceId: string, name: string) =>
  stmt(db, "UPDATE workspaces SET name = ? WHERE id = ?").run(name, workspaceId);
