import type { FileVersion, SearchResult, TrashItem } from "@/contract/files";
import { isWellFormedText, nameProblem } from "@/contract/rules";
import { checkPath, pathRejected, validationFailed } from "@/server/lib/api-error";
import { type RenameBatchInput, renameBatch } from "@/server/modules/rename/rename.service";
import type { FilesService } from "./files.service";
import type { ListOptions } from "./listing.service";
import { notAFile } from "./versions.service";

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
  /**
   * deleteFiles: every path, with its subtree, to the trash (one item each) or gone for good;
   * all or nothing, one event. 404 for the first unknown path.
   */
  remove(workspaceId: string, paths: string[], permanent: boolean): Promise<void>;
  /** Most recently deleted first. */
  listTrash(workspaceId: string): Promise<TrashItem[]>;
  /**
   * Puts the item back, recreating missing parents, beside a taken path as "name (restored)";
   * a file where a parent must be is `validation_failed` (`file_in_the_way`). 404 for an
   * unknown id.
   */
  restoreTrashItem(
    workspaceId: string,
    itemId: string,
  ): Promise<{ path: string; renamed: boolean }>;
  /** Deletes the item, its subtree and their versions, releasing their blob references. */
  purgeTrashItem(workspaceId: string, itemId: string): Promise<void>;
  /** Newest first; 404 for an unknown path, `validation_failed` (`not_a_file`) for a folder. */
  listVersions(workspaceId: string, path: string): Promise<FileVersion[]>;
  /** The version's content goes live, the replaced one is kept; 404 for an unknown id. */
  restoreVersion(workspaceId: string, versionId: string): Promise<void>;
  /**
   * The files below a folder as manifest JSON text, read while it is streamed; the folder is
   * checked first (404, or `not_a_folder` for field `query.path`).
   */
  manifest(workspaceId: string, path: string): Promise<AsyncGenerator<string>>;
  /**
   * renameFiles (rename.service.ts): plans a batch rename by pattern and, unless `dryRun`,
   * applies it in one unit that reads the plan again, refusing a stale `planId`.
   */
  renameBatch(workspaceId: string, body: RenameBatchInput): Promise<RenameBatchResult>;
}

export type RenameBatchResult = ReturnType<typeof renameBatch>;

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

  /** FilesService's, which the manifest route has always read. */
  get limits() {
    return this.files.limits;
  }

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

  async remove(workspaceId: string, paths: string[], permanent: boolean) {
    this.files.remove(workspaceId, paths, permanent);
  }

  async listTrash(workspaceId: string) {
    return this.files.trash(workspaceId);
  }

  async restoreTrashItem(workspaceId: string, itemId: string) {
    return this.files.restoreTrash(workspaceId, itemId);
  }

  async purgeTrashItem(workspaceId: string, itemId: string) {
    this.files.purgeTrash(workspaceId, itemId);
  }

  async listVersions(workspaceId: string, path: string) {
    const entry = this.files.get(workspaceId, path);
    if (!entry.is_file) throw notAFile(path);
    return this.files.versions(entry);
  }

  async restoreVersion(workspaceId: string, versionId: string) {
    this.files.restoreVersion(workspaceId, versionId);
  }

  async manifest(workspaceId: string, path: string) {
    return this.files.manifest(this.files.folder(workspaceId, path, "query.path"));
  }

  async renameBatch(workspaceId: string, body: RenameBatchInput) {
    return renameBatch(this.files, workspaceId, body);
  }
}
