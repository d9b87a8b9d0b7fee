import type { TrashItem } from "@/contract/files";
import { MAX_PATH_LENGTH } from "@/contract/rules";

export const deletedWithinOptions = [
  { value: "all", label: "Any time", hours: null },
  { value: "24h", label: "Last 24 hours", hours: 24 },
  { value: "7d", label: "Last 7 days", hours: 7 * 24 },
  { value: "30d", label: "Last 30 days", hours: 30 * 24 },
] as const;
export type DeletedWithin = (typeof deletedWithinOptions)[number]["value"];

export interface TrashFilter {
  text: string;
  deletedWithin: DeletedWithin;
  /** An original folder; "" is the whole workspace. */
  folder: string;
}

export const noTrashFilter: TrashFilter = { text: "", deletedWithin: "all", folder: "" };

/** The filter as the Trash URL carries it (`/trash?q=report&deleted=7d&folder=Projects`). */
export interface TrashSearch {
  q?: string;
  deleted?: Exclude<DeletedWithin, "all">;
  folder?: string;
}

const windows = deletedWithinOptions
  .map((o) => o.value)
  .filter((v): v is Exclude<DeletedWithin, "all"> => v !== "all");
const nonEmpty = (v: unknown, max: number) =>
  typeof v === "string" && v !== "" && v.length <= max ? v : undefined;

/**
 * The route's `validateSearch`: anything unknown or malformed falls back to "no filter". The
 * folder is only a string to match by prefix, so any folder path the service allows is kept.
 */
export function parseTrashSearch(search: Record<string, unknown>): TrashSearch {
  return {
    q: nonEmpty(search.q, 1_000),
    deleted: windows.find((w) => w === search.deleted),
    folder: nonEmpty(search.folder, MAX_PATH_LENGTH),
  };
}

export const filterFromSearch = (s: TrashSearch): TrashFilter => ({
  text: s.q ?? "",
  deletedWithin: s.deleted ?? "all",
  folder: s.folder ?? "",
});

/** The search params for a filter; what is not filtered stays out of the URL. */
export const searchFromFilter = (f: TrashFilter): TrashSearch => ({
  q: f.text || undefined,
  deleted: f.deletedWithin === "all" ? undefined : f.deletedWithin,
  folder: f.folder || undefined,
});

export const isFiltered = (f: TrashFilter) =>
  f.text.trim() !== "" || f.deletedWithin !== "all" || f.folder !== "";

export const folderOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf("/")));

/**
 * Folders the items were deleted from and their ancestors, each once, in name order: the folder
 * filter matches by prefix, so "Projects" gathers everything deleted anywhere below it.
 */
export function trashFolders(items: TrashItem[]): string[] {
  const folders = new Set<string>();
  for (const item of items) {
    for (let folder = folderOf(item.path); folder && !folders.has(folder); ) {
      folders.add(folder);
      folder = folderOf(folder);
    }
  }
  return [...folders].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
}

/** Items matching every part of the filter; text matches the original path, ignoring case. */
export function filterTrash(
  items: TrashItem[],
  filter: TrashFilter,
  now: number = Date.now(),
): TrashItem[] {
  const text = filter.text.trim().toLowerCase();
  const hours = deletedWithinOptions.find((o) => o.value === filter.deletedWithin)?.hours ?? null;
  const since = hours === null ? null : now - hours * 3600_000;
  const prefix = filter.folder ? `${filter.folder}/` : "";
  return items.filter(
    (item) =>
      (!text || item.path.toLowerCase().includes(text)) &&
      (since === null || Date.parse(item.deletedAt) >= since) &&
      (!prefix || item.path.startsWith(prefix)),
  );
}
