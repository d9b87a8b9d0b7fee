import { nameSortKey, sequenceFrame, sequenceKey } from "@/contract/rules";
import type { Db } from "@/server/db/database";
import { type EntryRow, filesByKeyPrefix } from "./files.repository";

/**
 * Where a file's numbered set lies in its folder's name index, or null for a file that is no
 * frame: the set's key, and the sort-key prefix every frame starts with (a frame's sort key
 * starts with its prefix's key, see nameSortKey), so the set is one range.
 */
export function sequenceRange(file: EntryRow) {
  const frame = file.is_file && file.parent_id !== null ? sequenceFrame(file.name) : null;
  if (!frame || file.parent_id === null) return null;
  return {
    folderId: file.parent_id,
    key: sequenceKey(file.name),
    keyPrefix: nameSortKey(frame.prefix).split("\u0001")[0]!,
  };
}

/**
 * The numbered set a file belongs to (`sequenceFrame` in the contract rules): its live siblings
 * with the same prefix, digit count and extension, read through the name index. A file that is
 * no frame, or the only frame of its set, is just itself. Reading stops once more than `max`
 * frames are found, so a caller with a bound never reads a huge set whole.
 */
export function sequenceOf(db: Db, file: EntryRow, max = Number.POSITIVE_INFINITY): EntryRow[] {
  const range = sequenceRange(file);
  if (!range) return [file];
  const frames: EntryRow[] = [];
  for (const sibling of filesByKeyPrefix(db, range.folderId, range.keyPrefix)) {
    if (sequenceKey(sibling.name) !== range.key) continue;
    frames.push(sibling);
    if (frames.length > max) break;
  }
  return frames.length > 1 ? frames : [file];
}
