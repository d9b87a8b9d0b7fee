import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { joinPath, normalizeName } from "@/contract/rules";
import type { CreatedTransfer } from "@/contract/transfers";
import {
  type AgentOptions,
  outcomeOf,
  type RunArgs,
  type RunResult,
  resumable,
  runFiles,
  UsageError,
} from "./engine";
import { type LocalFile, sha256File, untilStable, walk } from "./local-files";
import type { FileOutcome, Tracker } from "./progress";
import { TransferStateDir } from "./state";
import { uploadFile } from "./upload";

/** A workspace folder as typed (`/Projects/x/`) in the form the API takes (`Projects/x`). */
export const workspacePath = (p: string) => normalizeName(p.replace(/^\/+|\/+$/g, ""));

async function existing(sources: string[]) {
  const out: string[] = [];
  for (const s of sources) {
    const abs = path.resolve(s);
    if (!fs.existsSync(abs)) throw new UsageError(`${s}: no such file or folder`);
    out.push(abs);
  }
  return out;
}

/** Walks every source; `seconds` first waits until no file under them still grows. */
async function localFiles(items: { local: string; workspacePath: string }[], seconds?: number) {
  const walkAll = async () => {
    const emptyFolders: string[] = [];
    const files = await Promise.all(items.map((i) => walk(i.local, i.workspacePath, emptyFolders)));
    return { files: files.flat(), emptyFolders };
  };
  if (!seconds) return walkAll();
  await Promise.all((await walkAll()).files.map((f) => untilStable(f.local, seconds)));
  return walkAll();
}

/** Hashes, then uploads one file; a file that changed while it was read is refused here. */
function sendOne(
  created: CreatedTransfer,
  opts: AgentOptions,
  state: TransferStateDir,
  perFileWait: boolean,
) {
  const spec = created.transferSpec;
  return async (file: LocalFile & { key: string }, tracker: Tracker): Promise<FileOutcome> => {
    try {
      if (perFileWait && spec.growingFileWaitSeconds)
        await untilStable(file.local, spec.growingFileWaitSeconds);
      tracker.begin(file.key, file.size);
      // A file that goes in one request is read once, into memory: the bytes hashed are the
      // bytes sent (10,000 small files cost one open each, not three).
      const data =
        file.size <= spec.chunkSizeBytes ? await fs.promises.readFile(file.local) : undefined;
      const sha256 = data
        ? createHash("sha256").update(data).digest("hex")
        : await sha256File(file.local);
      const after = data ? null : await fs.promises.stat(file.local);
      if (
        (data && data.length !== file.size) ||
        (after && (after.size !== file.size || Math.trunc(after.mtimeMs) !== file.mtimeMs))
      )
        return {
          path: file.key,
          ok: false,
          bytes: 0,
          error: "the file changed while it was read (use --growing-file-wait)",
          code: "file_changed",
        };
      await uploadFile(
        { ...file, sha256, data },
        {
          spec,
          password: opts.password,
          urlStorage: state.urlStorage,
          limit: opts.limit,
          onSent: (n) => tracker.bytes(file.key, n),
          onConfirmed: (n) => tracker.bytes(file.key, n, true),
        },
      );
      return { path: file.key, ok: true, bytes: file.size, sha256 };
    } catch (e) {
      return outcomeOf(file.key, e);
    }
  };
}

/** Runs a send whose transfer exists: uploads what an earlier run has not. */
export async function runSend(
  args: RunArgs<LocalFile> & {
    /** Local folders with nothing in them: made in the workspace first, through the API. */
    emptyFolders: string[];
    perFileWait?: boolean;
  },
): Promise<RunResult> {
  for (const folder of args.emptyFolders) await args.opts.service?.createFolder(folder);
  return runFiles({
    ...args,
    files: args.files.map((f) => ({ ...f, key: f.workspacePath })),
    work: sendOne(args.created, args.opts, args.state, !!args.perFileWait),
  });
}

/**
 * `agent send <paths...> --to <folder>`: each local file or folder lands under the workspace
 * folder with its own name (a folder keeps its structure). Running the same command again
 * after an interruption resumes the same transfer.
 */
export async function send(sources: string[], to: string, opts: AgentOptions): Promise<RunResult> {
  const service = opts.service;
  if (!service) throw new UsageError("send needs the service address and key (--url, --key)");
  const locals = await existing(sources);
  const root = workspacePath(to);
  const items = locals.map((local) => ({
    local,
    destination: path.basename(local),
    workspacePath: joinPath(root, normalizeName(path.basename(local))),
  }));
  const seen = new Set<string>();
  for (const i of items) {
    if (seen.has(i.workspacePath))
      throw new UsageError(`two of the paths would both become ${i.workspacePath}`);
    seen.add(i.workspacePath);
  }
  const state = new TransferStateDir(opts.stateDir, {
    command: "send",
    api: service.api,
    workspace: await service.workspaceId(),
    sources: locals,
    to: root,
  });
  const { files, emptyFolders } = await localFiles(items, opts.growingFileWaitSeconds);
  const previous = await resumable(state, service);
  const created =
    previous?.created ??
    (await service.createTransfer({
      direction: "send",
      client: "agent",
      sourceRoot: "",
      destinationRoot: root,
      paths: items.map((i) => ({ source: i.local, destination: normalizeName(i.destination) })),
      fileCount: files.length,
      totalBytes: files.reduce((n, f) => n + f.size, 0),
      ...(opts.streams ? { streams: opts.streams } : {}),
      ...(opts.priority ? { priority: opts.priority } : {}),
      ...(opts.growingFileWaitSeconds
        ? { growingFileWaitSeconds: opts.growingFileWaitSeconds }
        : {}),
      ...(opts.password ? { contentProtectionPassword: opts.password } : {}),
    }));
  if (!previous) state.saveCreated(created);
  return runSend({
    created,
    resumed: !!previous,
    record: previous?.record ?? null,
    state,
    opts,
    files,
    emptyFolders,
  });
}
