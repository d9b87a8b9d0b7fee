import fs from "node:fs";
import path from "node:path";
import { joinPath } from "@/contract/rules";
import { type CreatedTransfer, transferSpecSchema } from "@/contract/transfers";
import { type AgentOptions, type RunResult, resumable, UsageError } from "./engine";
import { walk } from "./local-files";
import { type RemoteFile, remoteFiles, runReceive } from "./receive";
import { runSend, workspacePath } from "./send";
import { TransferStateDir } from "./state";

/** A spec file holds the create response (`{transferId, transferSpec, expiresAt}`) or the spec. */
function readSpec(file: string): CreatedTransfer {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new UsageError(`${file}: ${(e as Error).message}`);
  }
  const inner = (json as { transferSpec?: unknown })?.transferSpec ?? json;
  const parsed = transferSpecSchema.safeParse(inner);
  if (!parsed.success)
    throw new UsageError(`${file} is not a transfer spec: ${parsed.error.issues[0]?.message}`);
  const spec = parsed.data;
  return { transferId: spec.transferId, transferSpec: spec, expiresAt: spec.expiresAt };
}

const rooted = (root: string, p: string) => (root ? (p ? joinPath(root, p) : root) : p);

/**
 * `agent run <spec.json>`: runs a transfer created elsewhere (by a script, or the console).
 * send: each path's source is a local file or folder (relative to the working folder).
 * receive: each path's destination is a local path, under `to` when given. Without a key the
 * service hears no progress and a receive takes files only (listing a folder needs the API).
 */
export async function runSpec(
  file: string,
  to: string | undefined,
  opts: AgentOptions,
): Promise<RunResult> {
  const created = readSpec(file);
  const spec = created.transferSpec;
  const state = new TransferStateDir(opts.stateDir, {
    command: "run",
    transferId: spec.transferId,
  });
  const previous = await resumable(state, opts.service);
  if (!previous) state.saveCreated(created);
  const record = previous?.record ?? null;
  const resumed = !!previous;
  if (spec.direction === "send") {
    const emptyFolders: string[] = [];
    const files = (
      await Promise.all(
        spec.paths.map((p) => {
          const local = path.resolve(rooted(spec.sourceRoot, p.source));
          if (!fs.existsSync(local)) throw new UsageError(`${local}: no such file or folder`);
          const to = workspacePath(rooted(spec.destinationRoot, p.destination));
          return walk(local, to, emptyFolders);
        }),
      )
    ).flat();
    return runSend({
      created,
      resumed,
      record,
      state,
      opts,
      files,
      emptyFolders,
      perFileWait: true,
    });
  }
  const items = spec.paths.map((p) => ({
    source: workspacePath(rooted(spec.sourceRoot, p.source)),
    local: path.resolve(to ?? ".", rooted(spec.destinationRoot, p.destination)),
  }));
  if (opts.service) {
    const files = await remoteFiles(opts.service, items);
    return runReceive({ created, resumed, record, state, opts, files });
  }
  const files: RemoteFile[] = items.map((i) => ({
    workspacePath: i.source,
    local: i.local,
    size: null,
    sha256: null,
  }));
  return runReceive({ created, resumed, record, state, opts, files });
}
