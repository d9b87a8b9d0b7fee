import { toIso } from "@/server/lib/clock";
import { type EntryRow, subtreeRange } from "./files.repository";

const BATCH = 5_000;

/** Most files one manifest lists before it says `truncated` (FilesLimits). */
export const DEFAULT_MANIFEST_LIMIT = 100_000;

/** A manifest's line: a live file's path, size, date and content. */
export interface ManifestRow {
  path: string;
  size: number;
  modified_at: number;
  sha256: string;
}

/** Live files of the workspace after `after` and before `hi` in path order, at most `limit`. */
export type FilesAfter = (
  after: string,
  hi: string,
  limit: number,
) => ManifestRow[] | Promise<ManifestRow[]>;

/**
 * The manifest as JSON text, produced while it is read: batches of rows by keyset on the path
 * index (`filesAfter`, one engine's read), yielding to the event loop between batches so other
 * requests keep being served (one connection cannot hold a cursor open across awaits). Paths
 * are relative to the folder, in path order. Totals come last, once known; JSON member order
 * carries no meaning.
 */
export async function* manifestJson(
  folder: EntryRow,
  limit: number,
  filesAfter: FilesAfter,
): AsyncGenerator<string> {
  const [lo, hi] = subtreeRange(folder.path);
  const cut = folder.path ? folder.path.length + 1 : 0;
  yield `{"root":${JSON.stringify(folder.path)},"files":[`;
  let after = lo;
  let listed = 0;
  let bytes = 0;
  let truncated = false;
  while (true) {
    const rows = await filesAfter(after, hi, Math.min(BATCH, limit - listed + 1));
    const take = rows.slice(0, limit - listed);
    if (take.length < rows.length) truncated = true;
    let chunk = "";
    for (const r of take) {
      chunk += `${listed === 0 ? "" : ","}${JSON.stringify({
        path: r.path.slice(cut),
        size: r.size,
        modifiedAt: toIso(r.modified_at),
        sha256: r.sha256,
      })}`;
      listed++;
      bytes += r.size;
    }
    if (chunk) yield chunk;
    if (truncated || rows.length < BATCH) break;
    after = rows[rows.length - 1]!.path;
    await new Promise((resolve) => setImmediate(resolve));
  }
  yield `],"truncated":${truncated},"fileCount":${listed},"totalBytes":${bytes},"limit":${limit}}`;
}
