import { createHash } from "node:crypto";
import fs from "node:fs";
import { Transform } from "node:stream";
import { DeleteObjectCommand, HeadObjectCommand } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { Db } from "@/server/db/database";
import type { S3Settings } from "@/server/env";
import { Semaphore } from "@/server/lib/semaphore";
import { DiskBlobStore } from "@/server/modules/files/blob-store";
import { isNotFound, keyOf, PART_BYTES, s3Client } from "@/server/modules/files/s3-blob-store";
import { storedName } from "@/server/node/protection";

/** One stored blob the rows reference: its name (the key's last part), content hash and size. */
export interface BlobRef {
  name: string;
  sha256: string;
  size: number;
}

export interface BlobMoveReport {
  /** Blobs the rows reference, and their bytes. */
  blobs: number;
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
  blobs: number;
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

/**
 * Copies every blob the rows reference from DATA_DIR to the bucket, under the keys the S3 store
 * reads (`blobs/ab/cd/<name>`), `concurrency` at a time. First every file is checked to be there
 * with the rows' size (nothing is uploaded when one is not). An object already in the bucket
 * with the right size is skipped, so a re-run finishes what a stopped one began. Otherwise the
 * file is hashed while it uploads; plain content whose hash is not its name is deleted again and
 * named, and each upload is checked with a HEAD of its size. Throws a BlobMoveError naming every
 * key that is missing or differs, after trying the rest.
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
  const { refs, conflicts } = referencedBlobs(db);
  const problems = conflicts.map((name) => ({ key: keyOf(name), problem: "rows differ in size" }));
  for (const ref of refs) {
    const size = fs.statSync(disk.pathOf(ref.name), { throwIfNoEntry: false })?.size;
    if (size === undefined) problems.push({ key: keyOf(ref.name), problem: "missing on disk" });
    else if (size !== ref.size)
      problems.push({
        key: keyOf(ref.name),
        problem: `${size} bytes on disk, ${ref.size} in rows`,
      });
  }
  if (problems.length > 0) throw new BlobMoveError(problems);

  const client = s3Client(s3);
  const Bucket = s3.bucket;
  const bytes = refs.reduce((n, r) => n + r.size, 0);
  const referenced = new Set(refs.map((r) => r.name));
  const report: BlobMoveReport = {
    blobs: refs.length,
    bytes,
    uploaded: 0,
    uploadedBytes: 0,
    skipped: 0,
    unreferenced: storedNames(disk).filter((name) => !referenced.has(name)).length,
  };
  const progress: BlobMoveProgress = { done: 0, blobs: refs.length, bytesDone: 0, bytes };
  let lastProgress = performance.now();
  const stored = async (Key: string) => {
    try {
      return (await client.send(new HeadObjectCommand({ Bucket, Key }))).ContentLength ?? 0;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  };

  const moveOne = async (ref: BlobRef) => {
    const Key = keyOf(ref.name);
    if ((await stored(Key)) === ref.size) {
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
    const body = fs.createReadStream(disk.pathOf(ref.name)).pipe(hashing);
    await new Upload({ client, params: { Bucket, Key, Body: body }, partSize: PART_BYTES }).done();
    const sha256 = hash.digest("hex");
    // Encrypted bytes (`<sha256>.<iv>`) are ciphertext, which no stored hash describes: their
    // size is what can be checked without the content password.
    if (!ref.name.includes(".") && sha256 !== ref.sha256) {
      // Gone again at once, so a re-run does not take a wrong object for a moved one.
      await client.send(new DeleteObjectCommand({ Bucket, Key }));
      problems.push({ key: Key, problem: `its bytes hash to ${sha256}` });
      return;
    }
    const size = await stored(Key);
    if (size !== ref.size) {
      problems.push({ key: Key, problem: `${size ?? "no"} bytes in the bucket after the upload` });
      return;
    }
    report.uploaded++;
    report.uploadedBytes += ref.size;
  };

  const slots = new Semaphore(opts.concurrency ?? 4);
  await Promise.all(
    refs.map((ref) =>
      slots.run(async () => {
        await moveOne(ref);
        progress.done++;
        progress.bytesDone += ref.size;
        const now = performance.now();
        if (now - lastProgress >= (opts.progressEveryMs ?? 5000) || progress.done === refs.length) {
          lastProgress = now;
          opts.onProgress?.({ ...progress });
        }
      }),
    ),
  );
  if (problems.length > 0) throw new BlobMoveError(problems);
  return report;
}
