import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { joinPath } from "@/contract/rules";

/** A local file to send and the workspace path it becomes. */
export interface LocalFile {
  local: string;
  workspacePath: string;
  size: number;
  mtimeMs: number;
}

/**
 * The files under a local path (itself when it is a file), each mapped under `workspaceRoot`
 * with the folder structure kept: `shots/a/b.mov` sent to `Projects` becomes
 * `Projects/shots/a/b.mov` (as `cp -r` would place it). Folders with nothing in them are added
 * to `emptyFolders` (no upload would create them). Symbolic links are followed; other special
 * files (sockets, devices) are skipped since they hold no bytes to send.
 */
export async function walk(
  local: string,
  workspaceRoot: string,
  emptyFolders: string[] = [],
): Promise<LocalFile[]> {
  const out: LocalFile[] = [];
  async function visit(file: string, workspacePath: string) {
    const stat = await fs.promises.stat(file);
    if (stat.isDirectory()) {
      const names = (await fs.promises.readdir(file)).sort();
      if (names.length === 0) emptyFolders.push(workspacePath);
      for (const name of names) await visit(path.join(file, name), joinPath(workspacePath, name));
    } else if (stat.isFile()) {
      out.push({ local: file, workspacePath, size: stat.size, mtimeMs: Math.trunc(stat.mtimeMs) });
    }
  }
  await visit(path.resolve(local), workspaceRoot);
  return out;
}

/** Hex SHA-256 of a file, read as a stream. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(fs.createReadStream(file, { highWaterMark: 1 << 20 }), hash);
  return hash.digest("hex");
}

/**
 * Resolves once the file's size and modification time have not changed for `seconds` (a file
 * still being written by a camera or a render must not be sent half-done), with its last stat.
 */
export async function untilStable(file: string, seconds: number): Promise<fs.Stats> {
  let last = await fs.promises.stat(file);
  for (;;) {
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const now = await fs.promises.stat(file);
    if (now.size === last.size && now.mtimeMs === last.mtimeMs) return now;
    last = now;
  }
}
