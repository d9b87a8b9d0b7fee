import path from "node:path";
import { type Db, openDatabase } from "../db/database";
import { loadConfig } from "../env";
import { systemClock } from "../lib/clock";
import { EventRecorder } from "../modules/events/events.repository";
import { listWorkspaces, type WorkspaceRow } from "../modules/workspaces/workspaces.repository";

/** The CLIs open the same database as the running service (WAL lets both write). */
export function openCliContext(workspaceFlag?: string): {
  db: Db;
  events: EventRecorder;
  workspace: WorkspaceRow;
} {
  const config = loadConfig();
  const db = openDatabase(path.join(config.dataDir, "consign.db"));
  const workspaces = listWorkspaces(db);
  const workspace = workspaceFlag ? workspaces.find((w) => w.id === workspaceFlag) : workspaces[0];
  if (!workspace) {
    fail(
      workspaceFlag
        ? `No workspace ${workspaceFlag} in ${config.dataDir}`
        : `No workspace in ${config.dataDir} yet: start the service once (npm start) to create it`,
    );
  }
  return { db, events: new EventRecorder(db, systemClock), workspace };
}

export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

export const table = (rows: Record<string, unknown>[]) => {
  if (rows.length === 0) return "(none)";
  const cols = Object.keys(rows[0]!);
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? "").length)));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => v.padEnd(width[i]!))
      .join("  ")
      .trimEnd();
  return [line(cols), ...rows.map((r) => line(cols.map((c) => String(r[c] ?? ""))))].join("\n");
};
