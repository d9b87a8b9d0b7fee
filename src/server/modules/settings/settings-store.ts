import type { WorkspaceSettings } from "@/contract/settings";
import type { Db } from "@/server/db/database";
import { readSettings, updateSettings } from "./settings.service";

/**
 * The workspace settings' port (docs/scale-out.md, Settings): the name and the logo's measures,
 * one async call per unit. The logo's bytes stay with settings.service.ts. SQLite's
 * implementation runs today's statements inside the call; PostgreSQL's is settings-store.pg.ts,
 * and both answer alike (settings-store.test.ts).
 */
export interface SettingsStore {
  getWorkspaceSettings(workspaceId: string): Promise<WorkspaceSettings>;
  /** Renames the workspace (`name` as the route's schema left it: trimmed, 1 to 100 characters). */
  updateWorkspaceSettings(workspaceId: string, input: { name: string }): Promise<WorkspaceSettings>;
}

export class SqliteSettingsStore implements SettingsStore {
  constructor(private readonly db: Db) {}

  async getWorkspaceSettings(workspaceId: string) {
    return readSettings({ db: this.db }, workspaceId);
  }

  async updateWorkspaceSettings(workspaceId: string, input: { name: string }) {
    return updateSettings({ db: this.db }, workspaceId, input);
  }
}
