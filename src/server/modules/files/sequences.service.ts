import { nameSortKey, sequenceFrame, sequenceKey } from "@/contract/rules";
import type { Db } from "@/server/db/database";
import { type EntryRow, filesByKeyPrefix } from "./files.repository";

/**
 * The numbered set a file belongs to (`sequenceFrame` in the contract rules): its live siblings
 * with the same prefix, digit count and extension, read through the name index. A file that is
 * no frame, or the only frame of its set, is just itself. Reading stops once more than `max`
 * frames are found, so a caller with a bound never reads a huge set whole.
 */
export function sequenceOf(db: Db, file: EntryRow, max = Number.POSITIVE_INFINITY): EntryRow[] {
  const frame = file.is_file && file.parent_id !== null ? sequenceFrame(file.name) : null;
  if (!frame || file.parent_id === null) return [file];
  const key = sequenceKey(file.name);
  // A frame's sort key starts with its prefix's key (see nameSortKey), so the set is one range.
  const keyPrefix = nameSortKey(frame.prefix).split("\u0001")[0]!;
  const frames: EntryRow[] = [];
  for (const sibling of filesByKeyPrefix(db, file.parent_id, keyPrefix)) {
    if (sequenceKey(sibling.name) !== key) continue;
    frames.push(sibling);
    if (frames.length > max) break;
  }
  return frames.length > 1 ? frames : [file];
}
