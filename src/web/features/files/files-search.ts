import {
  type FileSortField,
  fileSortFields,
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

/** The Files URL's search params, checked with the contract's path rule (bad ones fall back). */
export function parseFilesSearch(search: Record<string, unknown>): FilesSearch {
  const path = typeof search.path === "string" && !pathProblem(search.path) ? search.path : "";
  const select =
    typeof search.select === "string" && search.select && !pathProblem(search.select)
      ? search.select
      : undefined;
  return {
    path: path || undefined,
    sort: oneOf(fileSortFields, search.sort),
    order: oneOf(sortOrders, search.order),
    select,
  };
}
