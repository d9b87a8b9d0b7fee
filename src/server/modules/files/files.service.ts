import type { EventData, EventType } from "@/contract/events";
import type { FileEntry, SearchResult, TrashItem } from "@/contract/files";
import { normalizeName } from "@/contract/rules";
import type { Db } from "@/server/db/database";
import type { Config } from "@/server/env";
import { notFound, validationFailed } from "@/server/lib/api-error";
import { type Clock, toIso } from "@/server/lib/clock";
import type { EventRecorder } from "@/server/modules/events/events.repository";
import { renamedData } from "@/server/modules/rename/rename-batch";
import { type BlobStore, DiskBlobStore, type FileContent, type StagedBlob } from "./blob-store";
import * as entries from "./files.repository";
import { baseName, type EntryRow, joinPath, parentOf, toFileEntry } from "./files.repository";
import { type ListOptions, listFolder, PageCache, PositionCache } from "./listing.service";
import { DEFAULT_MANIFEST_LIMIT, manifestJson } from "./manifest.service";
import { mimeFor } from "./media-types";
import { S3BlobStore } from "./s3-blob-store";
import { searchFiles } from "./search.service";
import { deleteTrashed } from "./trash.repository";
import {
  detach,
  getTrashItem,
  listTrash,
  moveToTrash,
  restoreFromTrash,
  topPaths,
} from "./trash.service";
import { moveVersions, protectNewestVersion } from "./versions.repository";
import { keepCurrentAsVersion, listVersions, restoreVersion } from "./versions.service";

/** One rename of a batch: the entry, its new name and path, and the file it replaces, if any. */
export interface BatchRename {
  entry: EntryRow;
  newName: string;
  to: string;
  replaces?: EntryRow;
}

export interface FilesLimits {
  /** Most files one manifest lists before it says `truncated`. */
  manifest: number;
}

export interface CommitOptions {
  mime?: string;
  modifiedAt?: number;
  /** How the stored bytes are encrypted (content protection, JSON), or null for plain bytes. */
  protection?: string | null;
}

type FileEventType = Extract<EventType, `file.${string}`>;

/**
 * Every change to the file tree goes through here, each in one immediate transaction, so the
 * folder counts, the blob reference counts and the tree never disagree, and the change's one
 * event (docs/api-decisions.md, File events) commits or rolls back with it.
 */
export class FilesService {
  readonly blobs: BlobStore;
  readonly positions = new PositionCache();
  readonly pages = new PageCache();
  readonly limits: FilesLimits = { manifest: DEFAULT_MANIFEST_LIMIT };

  constructor(
    readonly db: Db,
    private clock: Clock,
    private config: Pick<Config, "dataDir" | "trashRetentionDays" | "versionsKeep" | "blobStore">,
    private events: Pick<EventRecorder, "record">,
  ) {
    const store = config.blobStore;
    this.blobs =
      store.kind === "s3"
        ? new S3BlobStore(store.s3, config.dataDir, db, clock, {
            localCacheBytes: store.localCacheBytes,
          })
        : new DiskBlobStore(config.dataDir);
  }

  private tx<T>(fn: (now: number) => T): T {
    return this.db.transaction(() => fn(this.clock.now())).immediate();
  }

  /** Called inside the change's transaction: the event and the change commit together. */
  private record<T extends FileEventType>(workspaceId: string, type: T, data: EventData<T>) {
    this.events.record(workspaceId, type, data);
  }

  /** A live entry, or 404. The empty path is the root, which always exists. */
  get(workspaceId: string, p: string): EntryRow {
    const row =
      p === ""
        ? entries.root(this.db, workspaceId, this.clock.now())
        : entries.byPath(this.db, workspaceId, p);
    if (!row) throw notFound(`"${p}"`, { path: p });
    return row;
  }

  folder(workspaceId: string, p: string, field = "path"): EntryRow {
    const row = this.get(workspaceId, p);
    if (row.is_file)
      throw validationFailed(field, `"${p}" is a file, not a folder`, "not_a_folder");
    return row;
  }

  /** One page of a folder; `items` is FileEntry JSON text (see listing.service.ts). */
  list(folder: EntryRow, opts: ListOptions) {
    return listFolder(this.db, this, folder, opts);
  }

  search(scope: EntryRow, q: string, limit: number): SearchResult[] {
    return searchFiles(this.db, scope, q, limit);
  }

  manifest(folder: EntryRow): AsyncGenerator<string> {
    return manifestJson(folder, this.limits.manifest, (after, hi, limit) =>
      entries.filesAfter(this.db, folder.workspace_id, after, hi, limit),
    );
  }

  trash(workspaceId: string): TrashItem[] {
    return listTrash(this.db, workspaceId);
  }

  versions(file: EntryRow) {
    return listVersions(this.db, file);
  }

  /**
   * Creates the folder and any missing parents; a file anywhere on the way is refused. `created`
   * collects the paths of the folders it made. The path is taken in NFC, as the API takes it,
   * so a name typed on macOS (decomposed) and one typed elsewhere name the same folder.
   */
  ensureFolder(workspaceId: string, p: string, now: number, created: string[] = []): EntryRow {
    let current = entries.root(this.db, workspaceId, now);
    if (p === "") return current;
    for (const name of normalizeName(p).split("/")) {
      const next = entries.byPath(this.db, workspaceId, joinPath(current.path, name));
      if (next?.is_file)
        throw validationFailed("path", `"${next.path}" is a file, not a folder`, "file_in_the_way");
      if (next) {
        current = next;
      } else {
        current = entries.insert(this.db, current, name, null, now);
        created.push(current.path);
      }
    }
    return current;
  }

  /** Returns whether the folder was created (false: it already existed). */
  createFolder(workspaceId: string, p: string): boolean {
    return this.tx((now) => {
      const created: string[] = [];
      this.ensureFolder(workspaceId, p, now, created);
      if (created.length > 0) this.record(workspaceId, "file.created", { paths: created });
      return created.length > 0;
    });
  }

  /**
   * The service's way in for file bytes (the API carries none): the demo content, the seed CLI
   * and tests write through here; the data node stages its uploads itself and calls
   * `commitStaged`. The path is taken in NFC.
   */
  async writeFile(
    workspaceId: string,
    path: string,
    content: FileContent,
    opts: CommitOptions = {},
  ): Promise<FileEntry> {
    const staged = await this.blobs.stage(content);
    return this.commitStaged(workspaceId, path, staged, opts);
  }

  /**
   * Puts already staged, already hashed bytes at `path` in one transaction (nested in the
   * caller's, when it holds one, so its own writes commit with the file). Replacing content
   * keeps the old content as a version (with its protection); writing identical content changes
   * nothing. The staged blob is committed or discarded either way.
   */
  commitStaged(
    workspaceId: string,
    path: string,
    staged: StagedBlob,
    opts: CommitOptions = {},
  ): FileEntry {
    const p = normalizeName(path);
    const protection = opts.protection ?? null;
    try {
      return this.tx((now) => {
        const modifiedAt = opts.modifiedAt ?? now;
        const created: string[] = [];
        const parent = this.ensureFolder(workspaceId, parentOf(p), now, created);
        const existing = entries.byPath(this.db, workspaceId, p);
        if (existing && !existing.is_file) {
          throw validationFailed("path", `"${p}" is a folder`, "folder_in_the_way");
        }
        const existingProtection = existing ? entries.protectionOf(this.db, existing.id) : null;
        if (existing?.sha256 === staged.sha256 && existingProtection === protection) {
          this.blobs.discard(staged);
          return toFileEntry(existing);
        }
        entries.addBlobRef(this.db, staged.sha256, staged.size, now);
        const file = { size: staged.size, mime: opts.mime ?? mimeFor(p), sha256: staged.sha256 };
        let row: EntryRow;
        if (existing) {
          keepCurrentAsVersion(this.db, existing, this.config.versionsKeep);
          if (existingProtection) protectNewestVersion(this.db, existing.id, existingProtection);
          entries.setContent(this.db, existing.id, file, modifiedAt);
          entries.reordered(this.db, parent.id);
          row = entries.byId(this.db, existing.id)!;
          this.record(workspaceId, "file.updated", { paths: [p] });
        } else {
          row = entries.insert(this.db, parent, baseName(p), file, now, {
            createdAt: modifiedAt,
            modifiedAt,
          });
          this.record(workspaceId, "file.created", { paths: [...created, p] });
        }
        if (existingProtection || protection) entries.setProtection(this.db, row.id, protection);
        // Last, so a failure above leaves no file behind a reference that rolled back.
        this.blobs.commit(staged);
        return toFileEntry(row);
      });
    } catch (err) {
      this.blobs.discard(staged);
      throw err;
    }
  }

  rename(workspaceId: string, p: string, newName: string) {
    this.tx((now) => {
      const entry = this.get(workspaceId, p);
      if (entry.name === newName) return;
      const target = joinPath(parentOf(p), newName);
      if (entries.byPath(this.db, workspaceId, target)) {
        throw validationFailed("newName", `"${target}" already exists`, "conflict");
      }
      if (!entry.is_file) entries.movePrefix(this.db, workspaceId, p, target, null);
      entries.rename(this.db, entry.id, newName, target, entry.is_file ? mimeFor(newName) : null);
      entries.childrenChanged(this.db, entry.parent_id!, 0, 0, now);
      this.record(workspaceId, "file.renamed", { paths: [target], from: p, to: target });
    });
  }

  /**
   * Several renames in one transaction with one `file.renamed` event (batch rename, row 19).
   * `prepare` runs inside the transaction, under the write lock, so the renames it returns are
   * made against the tree it read; it may throw to refuse, or return no renames. Each rename is
   * the single rename's own steps (a folder's subtree follows, its folder's revision moves on);
   * an entry whose target another entry of the batch still holds first steps aside under a
   * temporary name no real name can take (control characters), so swaps and chains work.
   */
  renameMany<T>(workspaceId: string, prepare: () => { renames: BatchRename[]; result: T }): T {
    return this.tx((now) => {
      const { renames, result } = prepare();
      if (renames.length === 0) return result;
      const targets = new Set(renames.map((r) => r.to));
      const at = new Map(renames.map((r) => [r.entry.id, r.entry.path]));
      const moveTo = (entry: EntryRow, name: string, target: string) => {
        const current = at.get(entry.id)!;
        if (!entry.is_file) entries.movePrefix(this.db, workspaceId, current, target, null);
        entries.rename(this.db, entry.id, name, target, entry.is_file ? mimeFor(name) : null);
        at.set(entry.id, target);
      };
      for (const { entry } of renames) {
        if (!targets.has(entry.path)) continue;
        const aside = `\u0001rename-${entry.id}`;
        moveTo(entry, aside, joinPath(parentOf(entry.path), aside));
      }
      for (const r of renames) {
        if (r.replaces) this.replaceWith(r.replaces, r.entry, r.newName, now);
        else moveTo(r.entry, r.newName, r.to);
      }
      for (const folderId of new Set(renames.map((r) => r.entry.parent_id!)))
        entries.childrenChanged(this.db, folderId, 0, 0, now);
      const done = renames.map((r) => ({ from: r.entry.path, to: r.to }));
      this.record(workspaceId, "file.renamed", renamedData(done));
      return result;
    });
  }

  /**
   * A batch rename onto an existing file with `overwrite`: the file at the target keeps its
   * place, its history and its current content as a version (as a write over it does), takes
   * the renamed file's content, and adopts the renamed file's versions; the renamed entry goes.
   */
  private replaceWith(target: EntryRow, source: EntryRow, name: string, now: number) {
    // Each content keeps how its bytes are encrypted (content protection), wherever it goes.
    const kept = entries.protectionOf(this.db, target.id);
    const taken = entries.protectionOf(this.db, source.id);
    moveVersions(this.db, source.id, target.id);
    keepCurrentAsVersion(this.db, target, this.config.versionsKeep);
    if (kept) protectNewestVersion(this.db, target.id, kept);
    if (kept || taken) entries.setProtection(this.db, target.id, taken);
    entries.addBlobRef(this.db, source.sha256!, source.size, now);
    entries.setContent(
      this.db,
      target.id,
      { sha256: source.sha256!, size: source.size, mime: mimeFor(name) },
      source.modified_at,
    );
    entries.reordered(this.db, target.parent_id!);
    deleteTrashed(this.db, detach(this.db, source, now));
  }

  /**
   * All or nothing: every path is resolved before anything changes, and the whole batch is one
   * transaction with one event. A path inside another selected folder goes along with that folder.
   */
  remove(workspaceId: string, paths: string[], permanent: boolean) {
    this.tx((now) => {
      const tops = topPaths(paths);
      const found = tops.map((p) => {
        const row = entries.byPath(this.db, workspaceId, p);
        if (!row) throw notFound(`"${p}"`, { path: p });
        return row;
      });
      if (permanent) {
        for (const entry of found) deleteTrashed(this.db, detach(this.db, entry, now));
        this.record(workspaceId, "file.deleted", { paths: tops });
        return;
      }
      const items = found.map((entry) =>
        moveToTrash(this.db, entry, this.config.trashRetentionDays, now),
      );
      this.record(workspaceId, "file.trashed", {
        paths: tops,
        itemIds: items.map((i) => i.id),
        purgeAt: toIso(items[0]!.purge_at),
      });
    });
  }

  /** Puts a trash item back; says where, and whether that is under another name. */
  restoreTrash(workspaceId: string, itemId: string): { path: string; renamed: boolean } {
    return this.tx((now) => {
      const item = getTrashItem(this.db, workspaceId, itemId);
      const restored = restoreFromTrash(
        this.db,
        item,
        (p) => this.ensureFolder(workspaceId, p, now),
        now,
      );
      this.record(workspaceId, "file.restored", {
        paths: [restored.path],
        itemId,
        originalPath: item.path,
        renamed: restored.renamed,
      });
      return restored;
    });
  }

  /** A person's purge of one trash item (the hourly purge is files.workers.ts's). */
  purgeTrash(workspaceId: string, itemId: string) {
    this.tx(() => {
      const item = getTrashItem(this.db, workspaceId, itemId);
      deleteTrashed(this.db, item.id);
      this.record(workspaceId, "file.deleted", { paths: [item.path], itemId });
    });
  }

  restoreVersion(workspaceId: string, versionId: string) {
    this.tx((now) => {
      const file = restoreVersion(this.db, workspaceId, versionId, this.config.versionsKeep, now);
      this.record(workspaceId, "file.version_restored", { paths: [file.path], versionId });
    });
  }
}
