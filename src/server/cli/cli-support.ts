import path from "node:path";
import type { Db } from "@/server/db/database";
import { type AppDeps, createDeps } from "@/server/deps";
import { loadConfig } from "@/server/env";
import type { FilesService } from "@/server/modules/files/files.service";
import type { DirectoryStore } from "@/server/modules/members/directory-store";
import type { WorkspaceRow } from "@/server/modules/workspaces/workspaces.repository";

/**
 * The CLIs open the same database as the running service (WAL lets both write). On a data dir
 * the service has not started on yet, they create and migrate it, and make its workspace.
 */
export async function openCliContext(
  workspaceFlag?: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{
  db: Db;
  files: FilesService;
  directory: DirectoryStore;
  workspace: WorkspaceRow;
}> {
  const config = loadConfig(env);
  const deps = createDeps(config);
  const workspace = workspaceFlag
    ? (await deps.directory.workspaces()).find((w) => w.id === workspaceFlag)
    : await firstWorkspace(deps);
  if (!workspace) fail(`No workspace ${workspaceFlag} in ${config.dataDir}`);
  return { db: deps.db, files: deps.files, directory: deps.directory, workspace };
}

/** The service's first start, less what only it shows or does: the sign-in link, the demo. */
async function firstWorkspace(deps: AppDeps): Promise<WorkspaceRow> {
  // Its admin key reaches a person only through the service's sign-in link: made here, nobody
  // could ever use it, so it must not stay valid.
  const boot = await deps.directory.bootstrap({ keepKey: false });
  if (boot.created) {
    process.stderr.write(
      `Created workspace "${boot.workspace.name}" (id ${boot.workspace.id}) in ${deps.config.dataDir}\n`,
    );
  }
  return boot.workspace;
}

/** The data dir `npm run keys` opens without DATA_DIR: `./data` of the package, where npm runs it. */
const DEFAULT_DATA_DIR = path.resolve(import.meta.dirname, "../../../data");

const shellWord = (s: string) =>
  /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * The command that makes a sign-in key for `dataDir`, exactly: run without DATA_DIR against
 * another data dir, the CLI would quietly make a second workspace whose key this one refuses.
 */
export const keysCreateCommand = (dataDir: string) =>
  `${path.resolve(dataDir) === DEFAULT_DATA_DIR ? "" : `DATA_DIR=${shellWord(dataDir)} `}npm run keys -- create --scopes all`;

/** Where a CLI wrote, for a person to check it is the service's: the workspace and data dir. */
export const whereLine = (workspace: WorkspaceRow) =>
  `workspace "${workspace.name}" (id ${workspace.id}), data dir ${loadConfig().dataDir}`;

export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * `--expires`: an ISO 8601 date (`2026-07-01`, the start of that day in UTC) or date-time
 * (`2026-07-01T18:00`, local time unless it ends in `Z` or an offset) later than `now`.
 */
export function parseExpiry(
  text: string,
  now: number,
): { ok: true; at: number } | { ok: false; message: string } {
  const match = ISO_DATE_TIME.exec(text);
  const at = match ? Date.parse(text) : Number.NaN;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = (match ?? [])
    .slice(1, 7)
    .map((part) => Number(part ?? 0));
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  // Date.parse rolls some impossible dates and times over (February 30th becomes March 2nd).
  const real =
    !Number.isNaN(at) &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59;
  if (!real) {
    return {
      ok: false,
      message: `--expires must be an ISO 8601 date or date-time, such as 2026-07-01 or 2026-07-01T18:00:00Z; got ${text}`,
    };
  }
  if (at <= now) {
    return {
      ok: false,
      message: `--expires must be in the future; ${new Date(at).toISOString()} has passed`,
    };
  }
  return { ok: true, at };
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
