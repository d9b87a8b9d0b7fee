import {
  type FileSortField,
  fileSortFields,
  MAX_PATH_LENGTH,
  pathProblem,
  type SortOrder,
  sortOrders,
} from "@/contract/rules";

export interface FilesSearch {
  /** Absent for the workspace root. */
  path?: string;
  sort?: FileSortField;
  order?: SortOrder;
  /** A file to select and scroll to once the folder opens (a search result). */
  select?: string;
}

const oneOf = <T extends string>(values: readonly T[], v: unknown): T | undefined =>
  values.includes(v as T) ? (v as T) : undefined;

/** A non-empty path the service would accept (its rule and its length bound), or undefined. */
const acceptablePath = (v: unknown): string | undefined =>
  typeof v === "string" && v !== "" && v.length <= MAX_PATH_LENGTH && !pathProblem(v)
    ? v
    : undefined;

/** The Files URL's search params, checked with the contract's path rules (bad ones fall back). */
export function parseFilesSearch(search: Record<string, unknown>): FilesSearch {
  return {
    path: acceptablePath(search.path),
    sort: oneOf(fileSortFields, search.sort),
    order: oneOf(sortOrders, search.order),
    select: acceptablePath(search.select),
  };
}
