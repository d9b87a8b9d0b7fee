// Downloads by the browser itself: a receive transfer, then a plain link to the node with the
// transfer's token in the query. The browser's download manager does Range, resume and the
// writing to disk; this follows the node's count of bytes served to report the transfer's end.
import type { QueryClient } from "@tanstack/react-query";
import { ApiError } from "@/browser/api-error";
import { baseName, terminalTransferStates } from "@/contract/rules";
import type { TransferSpec } from "@/contract/transfers";
import { createTransfer } from "../api/create-transfer";
import { getTransfer } from "../api/get-transfer";
import { updateTransfer } from "../api/update-transfer";

const POLL_MS = 1_000;
/** Without a total (a service that does not count one) it is done once the count stops moving. */
const SETTLED_POLLS = 3;
/** Nothing served after this long: the browser never started (or the person cancelled) it. */
const START_TIMEOUT_MS = 120_000;
/**
 * No byte served for this long once started: the download was cancelled in the browser (a
 * download paused there and resumed within it goes on by Range with the same token).
 */
const STALL_TIMEOUT_MS = 10 * 60_000;

/** The node names the file (Content-Disposition); `download` keeps the page where it is. */
function openLink(url: string) {
  const a = document.createElement("a");
  a.href = url;
  a.download = "";
  a.rel = "noopener";
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
}

const nodeLink = (base: string, spec: TransferSpec, path?: string) => {
  const url = new URL(base, window.location.href);
  if (path !== undefined) url.searchParams.set("path", path);
  url.searchParams.set("token", spec.token);
  return url.toString();
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Reports the receive transfer running, then completed once the node has served its bytes
 * (`bytesServed`, against the totals the service counted from the tree). A ZIP serves more than
 * its files' bytes (its headers), so the counters reported stop at the totals.
 */
async function follow(queryClient: QueryClient, id: string) {
  await updateTransfer(queryClient, id, { status: "running", bytesDone: 0, filesDone: 0 }).catch(
    () => {},
  );
  let movedAt = Date.now();
  let last = -1;
  let still = 0;
  for (;;) {
    await sleep(POLL_MS);
    const t = await getTransfer(id).catch(() => null);
    if (!t) continue;
    if (terminalTransferStates.includes(t.status)) return;
    const served = t.bytesServed ?? 0;
    still = served === last ? still + 1 : 0;
    if (served !== last) movedAt = Date.now();
    last = served;
    const total = t.bytesTotal;
    const done = total !== null ? served >= total : served > 0 && still >= SETTLED_POLLS;
    if (!done) {
      if (Date.now() - movedAt > (served === 0 ? START_TIMEOUT_MS : STALL_TIMEOUT_MS)) {
        await updateTransfer(queryClient, id, {
          status: "failed",
          bytesDone: total === null ? served : Math.min(served, total),
          filesDone: 0,
          errorCode: served === 0 ? "not_started" : "stalled",
          errorMessage:
            served === 0
              ? "The browser did not start the download"
              : "The download stopped in the browser",
        }).catch(() => {});
        return;
      }
      if (still === 0 && served > 0)
        await updateTransfer(queryClient, id, {
          status: "running",
          bytesDone: total === null ? served : Math.min(served, total),
          filesDone: 0,
        }).catch(() => {});
      continue;
    }
    try {
      await updateTransfer(queryClient, id, {
        status: "completed",
        bytesDone: total ?? served,
        filesDone: t.filesTotal ?? 0,
      });
      return;
    } catch (error) {
      // Refused while the node has not served everything yet: look again at the next poll.
      if (!(error instanceof ApiError) || error.status >= 500) return;
    }
  }
}

/** One file, by a link the browser downloads with Range. */
export async function downloadFile(queryClient: QueryClient, file: { path: string; size: number }) {
  const link = await streamLink(queryClient, file);
  openLink(link.url);
  void follow(queryClient, link.transferId);
}

/**
 * A link to one file's bytes the browser reads with Range itself (the viewer's `<video src>` for
 * an original while its proxy renders): the same receive transfer a download makes, not followed,
 * since a player reads parts of the file, not all of it.
 */
export async function streamLink(queryClient: QueryClient, file: { path: string; size: number }) {
  const created = await createTransfer(queryClient, {
    direction: "receive",
    client: "web",
    paths: [{ source: file.path, destination: baseName(file.path) }],
    fileCount: 1,
    totalBytes: file.size,
  });
  const spec = created.transferSpec;
  return {
    url: nodeLink(spec.node.files, spec, file.path),
    transferId: created.transferId,
    expiresAt: spec.expiresAt,
  };
}

/** A folder or several items as one streamed ZIP (the node writes it as it reads the files). */
export async function downloadZip(
  queryClient: QueryClient,
  o: { folder: string } | { paths: string[] },
) {
  const paths = "folder" in o ? [o.folder] : o.paths;
  const created = await createTransfer(queryClient, {
    direction: "receive",
    client: "web",
    paths: paths.map((p) => ({ source: p, destination: baseName(p) })),
  });
  const spec = created.transferSpec;
  openLink(nodeLink(spec.node.zip, spec, "folder" in o ? o.folder : undefined));
  void follow(queryClient, created.transferId);
}

/** A folder's files as the manifest lists them: paths relative to the folder. */
export interface FolderFiles {
  files: { path: string; size: number }[];
  truncated: boolean;
}

async function saveOne(
  spec: TransferSpec,
  folder: string,
  file: { path: string },
  into: FileSystemDirectoryHandle,
) {
  const parts = file.path.split("/");
  let dir = into;
  for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part, { create: true });
  const handle = await dir.getFileHandle(parts.at(-1)!, { create: true });
  const res = await fetch(nodeLink(spec.node.files, spec, `${folder}/${file.path}`));
  if (!res.ok || !res.body) throw new Error(`${file.path}: the node answered ${res.status}`);
  // Streamed to disk as it arrives: a large file never sits whole in memory.
  await res.body.pipeTo(await handle.createWritable());
}

/**
 * A folder written file by file into a folder on this machine the person chose (where the
 * browser has `showDirectoryPicker`), keeping its structure, `streams` files at a time.
 */
export async function saveIntoFolder(
  queryClient: QueryClient,
  o: { folder: string; into: FileSystemDirectoryHandle; list: FolderFiles },
) {
  const { files } = o.list;
  const created = await createTransfer(queryClient, {
    direction: "receive",
    client: "web",
    paths: [{ source: o.folder, destination: o.into.name }],
    fileCount: files.length,
    totalBytes: files.reduce((sum, f) => sum + f.size, 0),
  });
  const spec = created.transferSpec;
  let next = 0;
  const worker = async () => {
    while (next < files.length) await saveOne(spec, o.folder, files[next++]!, o.into);
  };
  try {
    await Promise.all(Array.from({ length: Math.min(spec.streams, files.length) }, worker));
  } catch (error) {
    await updateTransfer(queryClient, created.transferId, {
      status: "failed",
      bytesDone: 0,
      filesDone: 0,
      errorCode: "save_failed",
      errorMessage: (error instanceof Error ? error.message : String(error)).slice(0, 500),
    }).catch(() => {});
    throw error;
  }
  await follow(queryClient, created.transferId);
  return files.length;
}
