import type { SearchResult } from "@/contract/files";
import { isWellFormedText, nameProblem } from "@/contract/rules";
import { checkPath, pathRejected, validationFailed } from "@/server/lib/api-error";
import type { FilesService } from "./files.service";
import type { ListOptions } from "./listing.service";

/** A folder page's request: the folder and ListOptions. */
export interface PageQuery extends ListOptions {
  path: string;
}

/** One page of a folder: its path, its entry count and the page's FileEntry array as JSON text. */
export interface FolderPage {
  path: string;
  total: number;
  items: string;
}

export interface SearchQuery {
  q: string;
  path: string;
  limit: number;
}

/**
 * The files area's metadata port (docs/scale-out.md, Files metadata): one async call per unit
 * of work, so an engine across the network costs a few round trips per request, not one per
 * statement. SQLite's implementation (below) runs today's synchronous code inside the call;
 * PostgreSQL's is files-store.pg.ts. Both answer alike, errors included (files-store.test.ts).
 */
export interface FilesStore {
  /**
   * Folders first, then files, each in `sort` order then by name. 404 for an unknown path;
   * `validation_failed` (`not_a_folder`, field `query.path`) for a file.
   */
  listPage(workspaceId: string, query: PageQuery): Promise<FolderPage>;
  /** Names in `path` and below, ranked exact, prefix, substring (search.service.ts). */
  search(workspaceId: string, query: SearchQuery): Promise<SearchResult[]>;
  /**
   * Renames in place, a folder's subtree along; the same name is a no-op. 404 for an unknown
   * path; a taken name is `validation_failed` with issue code `conflict`.
   */
  rename(workspaceId: string, path: string, newName: string): Promise<void>;
  /** Makes the folder and any missing parents; false when it existed already. */
  createFolder(workspaceId: string, path: string): Promise<boolean>;
}

/**
 * A new name held to the rules the route's schema applies, for callers that come without one:
 * not well-formed Unicode is `path_rejected`, any other problem `validation_failed`.
 */
export function checkNewName(name: string) {
  const problem = nameProblem(name);
  if (!problem) return;
  throw isWellFormedText(name)
    ? validationFailed("newName", problem, "custom")
    : pathRejected("newName", problem);
}

/** The embedded engine: FilesService's transactions, unchanged, inside each call. */
export class SqliteFilesStore implements FilesStore {
  constructor(private readonly files: FilesService) {}

  async listPage(workspaceId: string, query: PageQuery): Promise<FolderPage> {
    const folder = this.files.folder(workspaceId, query.path, "query.path");
    const { items, total } = this.files.list(folder, query);
    return { path: folder.path, total, items };
  }

  async search(workspaceId: string, { q, path, limit }: SearchQuery) {
    return this.files.search(this.files.folder(workspaceId, path, "query.path"), q, limit);
  }

  async rename(workspaceId: string, path: string, newName: string) {
    checkNewName(newName);
    this.files.rename(workspaceId, path, newName);
  }

  async createFolder(workspaceId: string, path: string) {
    checkPath("path", path);
    return this.files.createFolder(workspaceId, path);
  }
}
