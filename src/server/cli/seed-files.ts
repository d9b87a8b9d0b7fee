import { normalizeName } from "@/contract/rules";
import { seedEntries, seedTree } from "@/server/modules/files/bulk-seed";
import { openCliContext } from "./cli-support";

/*
 * What `npm run seed` does once its arguments are checked, callable without its process: the
 * browser journeys run it in their own worker, where a process per call cost 2 s of CPU to load
 * the service's modules again (e2e/fixtures.ts). `env` names the data dir, as DATA_DIR does.
 */

/** Puts `bytes` in the file at `target` (its folders made), the old content kept as a version. */
export async function writeSeedFile(
  target: string,
  bytes: Buffer,
  opts: { workspace?: string; env?: NodeJS.ProcessEnv } = {},
) {
  const { db, files, workspace } = await openCliContext(opts.workspace, opts.env);
  try {
    // Normalised as the API normalises a path, so the file is the one the API names.
    return await files.writeFile(workspace.id, normalizeName(target), bytes);
  } finally {
    db.close();
  }
}

/** Adds `entries` entries to `folder` (spread over subfolders of 1,000 with `tree`). */
export async function seedFolder(
  folder: string,
  entries: number,
  opts: { tree?: boolean; workspace?: string; env?: NodeJS.ProcessEnv } = {},
) {
  const { db, files, workspace } = await openCliContext(opts.workspace, opts.env);
  try {
    await (opts.tree ? seedTree : seedEntries)(files, workspace.id, normalizeName(folder), entries);
  } finally {
    db.close();
  }
}
