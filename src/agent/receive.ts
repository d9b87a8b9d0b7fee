import fs from "node:fs";
import path from "node:path";
import { baseName, joinPath } from "@/contract/rules";
import type { CreatedTransfer } from "@/contract/transfers";
import { downloadFile } from "./download";
import {
  type AgentOptions,
  outcomeOf,
  type RunArgs,
  type RunResult,
  resumable,
  runFiles,
  UsageError,
} from "./engine";
import type { FileOutcome, Tracker } from "./progress";
import { workspacePath } from "./send";
import type { ServiceClient } from "./service";
import { TransferStateDir } from "./state";

/** A workspace file to bring here; a file named on its own has its size and hash from the node. */
export interface RemoteFile {
  workspacePath: string;
  local: string;
  size: number | null;
  sha256: string | null;
}

/**
 * The files under each workspace path, through the API (a folder's manifest; a path that is
 * a file stands for itself), each placed under its local destination with the folder
 * structure kept.
 */
export async function remoteFiles(
  service: ServiceClient,
  items: { source: string; local: string }[],
) {
  const files: RemoteFile[] = [];
  for (const { source, local } of items) {
    const manifest = await service.manifest(source);
    if (manifest) {
      if (manifest.truncated)
        throw new UsageError(
          `${source} holds more than ${manifest.limit} files; receive its subfolders one by one`,
        );
      fs.mkdirSync(local, { recursive: true });
      for (const f of manifest.files)
        files.push({
          workspacePath: joinPath(source, f.path),
          local: path.join(local, ...f.path.split("/")),
          size: f.size,
          sha256: f.sha256,
        });
    } else {
      files.push({ workspacePath: source, local, size: null, sha256: null });
    }
  }
  return files;
}

function receiveOne(created: CreatedTransfer, opts: AgentOptions, resumed: boolean) {
  return async (file: RemoteFile & { key: string }, tracker: Tracker): Promise<FileOutcome> => {
    try {
      // A partial file from another (ended) transfer would be counted as received here while
      // the node never served it in this one; it starts over.
      if (!resumed) await fs.promises.rm(`${file.local}.part`, { force: true });
      tracker.begin(file.key, file.size ?? 0);
      const got = await downloadFile(file, {
        spec: created.transferSpec,
        password: opts.password,
        limit: opts.limit,
        onBytes: (n) => tracker.bytes(file.key, n, true),
      });
      return {
        path: file.key,
        ok: true,
        bytes: got.size,
        sha256: got.sha256,
        ...(got.resumedFrom ? { resumedFrom: got.resumedFrom } : {}),
      };
    } catch (e) {
      return outcomeOf(file.key, e);
    }
  };
}

/** Runs a receive whose transfer exists: downloads what an earlier run has not. */
export async function runReceive(args: RunArgs<RemoteFile>): Promise<RunResult> {
  return runFiles({
    ...args,
    files: args.files.map((f) => ({ ...f, key: f.local })),
    // A file done in an earlier run counts only while it is still there.
    stillDone: (f) => fs.existsSync(f.local),
    work: receiveOne(args.created, args.opts, args.resumed),
  });
}

/**
 * `agent receive <workspace paths...> --to <dir>`: each file or folder lands in the local
 * folder under its own name. Files come one by one (not as a ZIP) so each resumes on its own.
 */
export async function receive(
  sources: string[],
  to: string,
  opts: AgentOptions,
): Promise<RunResult> {
  const service = opts.service;
  if (!service) throw new UsageError("receive needs the service address and key (--url, --key)");
  const dir = path.resolve(to);
  const items = sources.map((s) => {
    const source = workspacePath(s);
    return { source, local: source ? path.join(dir, baseName(source)) : dir };
  });
  const state = new TransferStateDir(opts.stateDir, {
    command: "receive",
    api: service.api,
    workspace: await service.workspaceId(),
    sources: items.map((i) => i.source),
    to: dir,
  });
  const files = await remoteFiles(service, items);
  const previous = await resumable(state, service);
  const created =
    previous?.created ??
    (await service.createTransfer({
      direction: "receive",
      client: "agent",
      paths: items.map((i) => ({ source: i.source, destination: i.local })),
      ...(opts.streams ? { streams: opts.streams } : {}),
      ...(opts.priority ? { priority: opts.priority } : {}),
    }));
  if (!previous) state.saveCreated(created);
  return runReceive({
    created,
    resumed: !!previous,
    record: previous?.record ?? null,
    state,
    opts,
    files,
  });
}
