import type { Db } from "@/server/db/database";
import { toIso } from "@/server/lib/clock";
import { type EntryRow, filesAfter, subtreeRange } from "./files.repository";

const BATCH = 5_000;

/**
 * The manifest as JSON text, produced while it is read: batches of rows by keyset on the path
 * index, yielding to the event loop between batches so other requests keep being served (one
 * connection cannot hold a cursor open across awaits). Paths are relative to the folder, in
 * path order. Totals come last, once known; JSON member order carries no meaning.
 */
export async function* manifestJson(
  db: Db,
  folder: EntryRow,
  limit: number,
): AsyncGenerator<string> {
  const [lo, hi] = subtreeRange(folder.path);
  const cut = folder.path ? folder.path.length + 1 : 0;
  yield `{"root":${JSON.stringify(folder.path)},"files":[`;
  let after = lo;
  let listed = 0;
  let bytes = 0;
  let truncated = false;
  while (true) {
    const rows = filesAfter(
      db,
      folder.workspace_id,
      after,
      hi,
      Math.min(BATCH, limit - listed + 1),
    );
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
