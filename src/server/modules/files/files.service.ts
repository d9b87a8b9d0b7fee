import type { FileEntry } from "@/contract/files";
import type { Db } from "@/server/db/database";
import type { Config } from "@/server/env";
import { notFound, validationFailed } from "@/server/lib/api-error";
import type { Clock } from "@/server/lib/clock";
import { BlobStore, type FileContent } from "./blob-store";
import {
  baseName,
  type EntryRow,
  FilesRepository,
  joinPath,
  mimeFor,
  parentOf,
  sortKey,
  toFileEntry,
} from "./files.repository";
import { PageCache, PositionCache } from "./listing";
import {
  collectBlobs,
  detach,
  getTrashItem,
  moveToTrash,
  purgeDetached,
  restoreFromTrash,
} from "./trash";
import { keepCurrentAsVersion, restoreVersion } from "./versions";

export interface FilesLimits {
  /** Most files one manifest lists before it says `truncated`. */
  manifest: number;
}

export const DEFAULT_MANIFEST_LIMIT = 100_000;

/**
 * Every change to the file tree goes through here, each in one immediate transaction, so the
 * folder counts, the blob reference counts and the tree never disagree.
 */
export class FilesService {
  readonly repo: FilesRepository;
  readonly blobs: BlobStore;
  readonly positions = new PositionCache();
  readonly pages = new PageCache();
  readonly limits: FilesLimits = { manifest: DEFAULT_MANIFEST_LIMIT };

  constructor(
    readonly db: Db,
    private clock: Clock,
    private config: Pick<Config, "dataDir" | "trashRetentionDays" | "versionsKeep">,
  ) {
    this.repo = new FilesRepository(db);
    this.blobs = new BlobStore(config.dataDir);
  }

  private tx<T>(fn: (now: number) => T): T {
    return this.db.transaction(() => fn(this.clock.now())).immediate();
  }

  /** A live entry, or 404. The empty path is the root, which always exists. */
  get(workspaceId: string, p: string): EntryRow {
    const row =
      p === "" ? this.repo.root(workspaceId, this.clock.now()) : this.repo.byPath(workspaceId, p);
    if (!row) throw notFound(`"${p}"`, { path: p });
    return row;
  }

  folder(workspaceId: string, p: string, field = "path"): EntryRow {
    const row = this.get(workspaceId, p);
    if (row.is_file)
      throw validationFailed(field, `"${p}" is a file, not a folder`, "not_a_folder");
    return row;
  }

  /** Creates the folder and any missing parents; a file anywhere on the way is refused. */
  ensureFolder(workspaceId: string, p: string, now: number): EntryRow {
    let current = this.repo.root(workspaceId, now);
    if (p === "") return current;
    for (const name of p.split("/")) {
      const next = this.repo.byPath(workspaceId, joinPath(current.path, name));
      if (next?.is_file)
        throw validationFailed("path", `"${next.path}" is a file, not a folder`, "file_in_the_way");
      current = next ?? this.repo.insert(current, name, null, now);
    }
    return current;
  }

  /** Returns whether the folder was created (false: it already existed). */
  createFolder(workspaceId: string, p: string): boolean {
    return this.tx((now) => {
      const existed = this.repo.byPath(workspaceId, p);
      this.ensureFolder(workspaceId, p, now);
      return !existed;
    });
  }

  /**
   * The service's way in for file bytes (the API carries none): the demo content, the seed CLI,
   * tests and later transfers and portals write through here. Replacing content keeps the old
   * content as a version; writing identical content changes nothing.
   */
  async writeFile(
    workspaceId: string,
    p: string,
    content: FileContent,
    opts: { mime?: string; modifiedAt?: number } = {},
  ): Promise<FileEntry> {
    const staged = await this.blobs.stage(content);
    try {
      return this.tx((now) => {
        const modifiedAt = opts.modifiedAt ?? now;
        const parent = this.ensureFolder(workspaceId, parentOf(p), now);
        const existing = this.repo.byPath(workspaceId, p);
        if (existing && !existing.is_file) {
          throw validationFailed("path", `"${p}" is a folder`, "folder_in_the_way");
        }
        if (existing?.sha256 === staged.sha256) {
          this.blobs.discard(staged);
          return toFileEntry(existing);
        }
        this.repo.addBlobRef(staged.sha256, staged.size, now);
        const mime = opts.mime ?? mimeFor(p);
        let row: EntryRow;
        if (existing) {
          keepCurrentAsVersion(this.repo, existing, this.config.versionsKeep);
          this.repo.sql
            .get("UPDATE entries SET sha256 = ?, size = ?, mime = ?, modified_at = ? WHERE id = ?")
            .run(staged.sha256, staged.size, mime, modifiedAt, existing.id);
          this.repo.reordered(parent.id);
          row = this.repo.byId(existing.id)!;
        } else {
          row = this.repo.insert(
            parent,
            baseName(p),
            { size: staged.size, mime, sha256: staged.sha256 },
            now,
            {
              createdAt: modifiedAt,
              modifiedAt,
            },
          );
        }
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
      if (this.repo.byPath(workspaceId, target)) {
        throw validationFailed("newName", `"${target}" already exists`, "conflict");
      }
      if (!entry.is_file) this.repo.movePrefix(workspaceId, p, target, null);
      this.repo.sql
        .get("UPDATE entries SET name = ?, sort_key = ?, path = ?, mime = ? WHERE id = ?")
        .run(newName, sortKey(newName), target, entry.is_file ? mimeFor(newName) : null, entry.id);
      this.repo.childrenChanged(entry.parent_id!, 0, 0, now);
    });
  }

  /**
   * All or nothing: every path is resolved before anything changes, and the whole batch is one
   * transaction. A path inside another selected folder goes along with that folder.
   */
  remove(workspaceId: string, paths: string[], permanent: boolean) {
    this.tx((now) => {
      const unique = [...new Set(paths)].sort();
      const tops = unique.filter((p) => !unique.some((q) => p.startsWith(`${q}/`)));
      const entries = tops.map((p) => {
        const row = this.repo.byPath(workspaceId, p);
        if (!row) throw notFound(`"${p}"`, { path: p });
        return row;
      });
      for (const entry of entries) {
        if (permanent) purgeDetached(this.repo, detach(this.repo, entry, now));
        else moveToTrash(this.repo, entry, this.config.trashRetentionDays, now);
      }
    });
  }

  restoreTrash(workspaceId: string, itemId: string): string {
    return this.tx((now) =>
      restoreFromTrash(
        this.repo,
        getTrashItem(this.repo, workspaceId, itemId),
        (p) => this.ensureFolder(workspaceId, p, now),
        now,
      ),
    );
  }

  purgeTrash(workspaceId: string, itemId: string) {
    this.tx(() => purgeDetached(this.repo, getTrashItem(this.repo, workspaceId, itemId).id));
  }

  restoreVersion(workspaceId: string, versionId: string) {
    this.tx((now) =>
      restoreVersion(this.repo, workspaceId, versionId, this.config.versionsKeep, now),
    );
  }

  /** The recurring purge: expired trash items, then blobs nobody references, then stale temp files. */
  purgeExpired(): { items: number; blobs: number } {
    const now = this.clock.now();
    const expired = this.repo.sql
      .get<string>("SELECT id FROM trash_items WHERE purge_at <= ? ORDER BY purge_at")
      .pluck()
      .all(now);
    // One transaction per item keeps each write lock short next to live traffic.
    for (const id of expired) this.tx(() => purgeDetached(this.repo, id));
    const blobs = collectBlobs(this.repo, this.blobs);
    this.blobs.sweepTemp(86_400_000, Date.now());
    return { items: expired.length, blobs };
  }
}
