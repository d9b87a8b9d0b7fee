import type { WorkspaceSettings } from "@/contract/settings";
import type { PgPool } from "@/server/db/pg/pool";
import { settingsView } from "./settings.service";
import type { SettingsStore } from "./settings-store";

interface SettingsRow {
  name: string;
  width: number | null;
  height: number | null;
  size_bytes: number | null;
  updated_at: number | null;
}

/** The logo's measures beside the name: its size is counted in the database, its bytes stay. */
const LOGO = `SELECT w.name, l.width, l.height, octet_length(l.png)::bigint AS size_bytes, l.updated_at
  FROM w LEFT JOIN workspace_logos l ON l.workspace_id = w.id`;

const view = (row: SettingsRow | undefined): WorkspaceSettings =>
  settingsView(
    row?.name,
    row && row.width !== null
      ? {
          width: row.width,
          height: row.height!,
          sizeBytes: row.size_bytes!,
          updatedAt: row.updated_at!,
        }
      : undefined,
  );

/** The workspace settings on PostgreSQL: each unit is one statement. */
export class PgSettingsStore implements SettingsStore {
  constructor(private readonly pool: PgPool) {}

  async getWorkspaceSettings(workspaceId: string) {
    const { rows } = await this.pool.query<SettingsRow>(
      `WITH w AS (SELECT id, name FROM workspaces WHERE id = $1) ${LOGO}`,
      [workspaceId],
    );
    return view(rows[0]);
  }

  async updateWorkspaceSettings(workspaceId: string, input: { name: string }) {
    const { rows } = await this.pool.query<SettingsRow>(
      `WITH w AS (UPDATE workspaces SET name = $2 WHERE id = $1 RETURNING id, name) ${LOGO}`,
      [workspaceId, input.name],
    );
    return view(rows[0]);
  }
}
