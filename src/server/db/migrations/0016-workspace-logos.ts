import type { Migration } from ".";

// A workspace's logo for its documents: one row per workspace, the re-encoded PNG itself (at most
// 600 × 200 pixels, so small enough for a BLOB beside the rest of the settings).
export const workspaceLogos: Migration = {
  version: 16,
  name: "workspace-logos",
  up(db) {
    db.exec(`
      CREATE TABLE workspace_logos (
        workspace_id TEXT PRIMARY KEY REFERENCES workspaces(id),
        png BLOB NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `);
  },
};
