import fs from "node:fs";
import path from "node:path";

/**
 * Only the service's own user may read what the data dir holds (the database, file bytes,
 * keys); nobody else on the host. Modes passed at creation are narrowed by the umask, never
 * widened, so these are exact for what the service creates.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Makes a folder and its missing parents private; takes group and other access from an existing one. */
export function ensurePrivateDir(dir: string) {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  makePrivate(dir);
}

/**
 * Writes a file only the service's user can read, in a private folder. `exclusive` refuses a
 * file that exists (EEXIST): of two processes creating the same key, the loser reads the
 * winner's instead of overwriting it.
 */
export function writePrivateFile(
  file: string,
  data: string | Uint8Array,
  opts: { exclusive?: boolean } = {},
) {
  ensurePrivateDir(path.dirname(file));
  fs.writeFileSync(file, data, { mode: PRIVATE_FILE_MODE, flag: opts.exclusive ? "wx" : "w" });
  // A file that already existed keeps its mode through a write.
  if (!opts.exclusive) makePrivate(file);
}

/**
 * Brings a data dir made before these modes up to them: the folder and each entry directly in
 * it. Deeper entries are not walked (that would read the name of every stored blob at each
 * start): once their folder is 0700, other users cannot reach them whatever their own mode.
 * Symbolic links are left alone; their target may be anything, anywhere.
 */
export function tightenDataDir(dataDir: string) {
  ensurePrivateDir(dataDir);
  for (const entry of fs.readdirSync(dataDir, { withFileTypes: true })) {
    if (entry.isDirectory() || entry.isFile()) makePrivate(path.join(dataDir, entry.name));
  }
}

/** Removes group and other access, keeping the owner's. */
export function makePrivate(p: string) {
  const stat = fs.statSync(p, { throwIfNoEntry: false });
  if (stat && (stat.mode & 0o077) !== 0) fs.chmodSync(p, stat.mode & 0o700);
}
