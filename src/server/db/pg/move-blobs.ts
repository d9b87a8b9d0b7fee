import { createHash } from "node:crypto";
import fs from "node:fs";
import { Transform } from "node:stream";
import { DeleteObjectCommand, HeadObjectCommand } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { Db } from "@/server/db/database";
import type { S3Settings } from "@/server/env";
import { DiskBlobStore } from "@/server/modules/files/blob-store";
import { isNotFound, keyOf, PART_BYTES, s3Client } from "@/server/modules/files/s3-blob-store";
import { renditionFile, renditionKey } from "@/server/modules/media/rendition-store";
import { readyRenditions } from "@/server/modules/media/renditions.repository";
import { storedName } from "@/server/node/protection";

/** One stored blob the rows reference: its name (the key's last part), content hash and size. */
export interface BlobRef {
  name: string;
  sha256: string;
  size: number;
}

export interface BlobMoveReport {
  /** Blobs the rows reference and ready renditions, and the bytes of both. */
  blobs: number;
  renditions: number;
  bytes: number;
  uploaded: number;
  uploadedBytes: number;
  /** Already in the bucket with the right size (a re-run after a stop). */
  skipped: number;
  /** Files under DATA_DIR/blobs no row references: garbage, left where they are. */
  unreferenced: number;
}

export interface BlobMoveProgress {
  done: number;
  objects: number;
  bytesDone: number;
  bytes: number;
}

/** A blob that cannot move as the rows describe it; the move fails naming every one. */
export class BlobMoveError extends Error {
  constructor(readonly problems: { key: string; problem: string }[]) {
    const shown = problems.slice(0, 20).map((p) => `${p.key} (${p.problem})`);
    const more =
      problems.length > shown.length ? ` and ${problems.length - shown.length} more` : "";
    super(`${problems.length} blob(s) cannot move: ${shown.join(", ")}${more}`);
  }
}

/**
 * Every blob name the rows reference (live and trashed files, kept versions, share snapshots),
 * with the size the rows give it. Encrypted content (content protection) is stored as
 * `<sha256>.<iv>`. Two rows giving one name different sizes is a problem of its own.
 */
export function referencedBlobs(db: Db): { refs: BlobRef[]; conflicts: string[] } {
  const rows = db
    .prepare(
      `SELECT sha256, size, protection FROM entries WHERE is_file = 1 AND sha256 IS NOT NULL
       UNION ALL SELECT sha256, size, protection FROM file_versions
       UNION ALL SELECT sha256, size, NULL FROM share_files`,
    )
    .all() as { sha256: string; size: number; protection: string | null }[];
  const byName = new Map<string, BlobRef>();
  const conflicts = new Set<string>();
  for (const r of rows) {
    const name = storedName(r.sha256, r.protection ? JSON.parse(r.protection) : null);
    const seen = byName.get(name);
    if (seen && seen.size !== r.size) conflicts.add(name);
    else byName.set(name, { name, sha256: r.sha256, size: r.size });
  }
  const refs = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  return { refs, conflicts: [...conflicts] };
}

/** Names of the files stored under `blobs/ab/cd/` (not the temp and staging folders). */
function storedNames(disk: DiskBlobStore): string[] {
  const names: string[] = [];
  for (const a of fs.readdirSync(disk.root)) {
    if (!/^[0-9a-f]{2}$/.test(a)) continue;
    for (const b of fs.readdirSync(`${disk.root}/${a}`))
      names.push(...fs.readdirSync(`${disk.root}/${a}/${b}`));
  }
  return names;
}

/** One object to write: a local file, its key, the size the rows give, the hash it must have. */
interface MoveItem {
  key: string;
  file: string;
  size: number;
  /** Null where nothing records one: encrypted content, renditions. */
  sha256: string | null;
}

/**
 * What goes to the bucket: each referenced blob, and each ready rendition (derived media, kept
 * in the bucket by content on the S3 profile), or the problems that stop the move before any
 * upload: a file missing, or of another size than its rows say.
 */
function itemsOf(db: Db, disk: DiskBlobStore, dataDir: string) {
  const { refs, conflicts } = referencedBlobs(db);
  const problems = conflicts.map((name) => ({ key: keyOf(name), problem: "rows differ in size" }));
  const blobs: MoveItem[] = refs.map((r) => ({
    key: keyOf(r.name),
    file: disk.pathOf(r.name),
    size: r.size,
    // Encrypted bytes (`<sha256>.<iv>`) are ciphertext, which no stored hash describes: their
    // size is what can be checked without the content password.
    sha256: r.name.includes(".") ? null : r.sha256,
  }));
  const renditions: MoveItem[] = readyRenditions(db).map((r) => {
    const file = renditionFile(dataDir, r);
    // Rows from before sizes were kept: the file's own.
    const size = r.size_bytes ?? fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    return { key: renditionKey(r), file, size, sha256: null };
  });
  for (const item of [...blobs, ...renditions]) {
    const size = fs.statSync(item.file, { throwIfNoEntry: false })?.size;
    if (size === undefined) problems.push({ key: item.key, problem: "missing on disk" });
    else if (size !== item.size)
      problems.push({ key: item.key, problem: `${size} bytes on disk, ${item.size} in rows` });
  }
  const referenced = new Set(refs.map((r) => r.name));
  const unreferenced = storedNames(disk).filter((name) => !referenced.has(name)).length;
  return { blobs, renditions, problems, unreferenced };
}

/**
 * Copies every blob the rows reference, and every ready rendition, from DATA_DIR to the bucket
 * under the keys the service reads (`blobs/ab/cd/<name>`, `renditionKey`), `concurrency` at a
 * time. First every file is checked to be there with the rows' size (nothing is uploaded when
 * one is not). An object already in the bucket with the right size is skipped, so a re-run
 * finishes what a stopped one began. Otherwise the file is hashed while it uploads; plain
 * content whose hash is not its name is deleted again and named, and each upload is checked
 * with a HEAD of its size. Throws a BlobMoveError naming every key that is missing or differs,
 * after trying the rest.
 */
export async function moveBlobs(
  db: Db,
  dataDir: string,
  s3: S3Settings,
  opts: {
    concurrency?: number;
    onProgress?: (p: BlobMoveProgress) => void;
    progressEveryMs?: number;
  } = {},
): Promise<BlobMoveReport> {
  const disk = new DiskBlobStore(dataDir);
  const { blobs, renditions, problems, unreferenced } = itemsOf(db, disk, dataDir);
  if (problems.length > 0) throw new BlobMoveError(problems);

  const client = s3Client(s3);
  const Bucket = s3.bucket;
  const items = [...blobs, ...renditions];
  const bytes = items.reduce((n, r) => n + r.size, 0);
  const report: BlobMoveReport = {
    blobs: blobs.length,
    renditions: renditions.length,
    bytes,
    uploaded: 0,
    uploadedBytes: 0,
    skipped: 0,
    unreferenced,
  };
  const progress: BlobMoveProgress = { done: 0, objects: items.length, bytesDone: 0, bytes };
  let lastProgress = performance.now();
  const stored = async (Key: string) => {
    try {
      return (await client.send(new HeadObjectCommand({ Bucket, Key }))).ContentLength ?? 0;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  };

  const moveOne = async ({ key: Key, file, size, sha256 }: MoveItem) => {
    if ((await stored(Key)) === size) {
      report.skipped++;
      return;
    }
    const hash = createHash("sha256");
    const hashing = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const body = fs.createReadStream(file).pipe(hashing);
    await new Upload({ client, params: { Bucket, Key, Body: body }, partSize: PART_BYTES }).done();
    const got = hash.digest("hex");
    if (sha256 !== null && got !== sha256) {
      // Gone again at once, so a re-run does not take a wrong object for a moved one.
      await client.send(new DeleteObjectCommand({ Bucket, Key }));
      problems.push({ key: Key, problem: `its bytes hash to ${got}` });
      return;
    }
    const landed = await stored(Key);
    if (landed !== size) {
      problems.push({
        key: Key,
        problem: `${landed ?? "no"} bytes in the bucket after the upload`,
      });
      return;
    }
    report.uploaded++;
    report.uploadedBytes += size;
  };

  // `concurrency` workers taking the next item: memory stays flat however many there are.
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      // A fault of the bucket or the disk is that key's problem; the rest still move.
      await moveOne(item).catch((err: Error) =>
        problems.push({ key: item.key, problem: err.message }),
      );
      progress.done++;
      progress.bytesDone += item.size;
      const now = performance.now();
      if (now - lastProgress >= (opts.progressEveryMs ?? 5000) || progress.done === items.length) {
        lastProgress = now;
        opts.onProgress?.({ ...progress });
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, worker));
  if (problems.length > 0) throw new BlobMoveError(problems);
  return report;
}
