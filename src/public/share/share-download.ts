import { createSHA256 } from "hash-wasm";
import { ApiError } from "@/browser/api-error";
import { saveFile } from "@/browser/save-file";
import { StoredZipReader } from "@/browser/zip-reader";
import { baseName, namesBelowCommonFolder } from "@/contract/rules";
import type { LinkApi } from "./share-api";

/*
 * The browser's receiving engine: fetches from the data node with the transfer's token, hashes
 * the bytes as they arrive (hash-wasm: WebCrypto cannot hash a stream) and saves them through a
 * Blob URL. The receipt trusts only this hash, never the node's header. Several files come as one
 * ZIP, each entry hashed as it arrives. The Blob is held until it is saved; Chromium keeps a
 * large one on disk, not in memory.
 */

export type FileState =
  | { phase: "waiting" }
  | { phase: "downloading"; received: number }
  | { phase: "checking" }
  | { phase: "verified"; sha256: string }
  | { phase: "unverified"; sha256: string | null }
  | { phase: "failed"; message: string };

type OnState = (path: string, state: FileState) => void;
type Reported = { path: string; sha256: string | null }[];

/** Fetches `url` whole, handing each chunk to `onChunk`, and returns the bytes as a Blob. */
async function fetchBlob(url: string, token: string, onChunk: (bytes: Uint8Array) => void) {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  if (!res.ok || !res.body) {
    const data = await res.json().catch(() => null);
    throw new Error(data?.error?.message ?? `The download failed (${res.status})`);
  }
  const parts: Uint8Array[] = [];
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    onChunk(value);
    parts.push(value);
  }
  return new Blob(parts as BlobPart[]);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Reports the hashes and shows each file's verdict. The node counts what it served a moment
 * after the last byte leaves, so a report refused as `not_served` is sent again shortly.
 */
async function report(api: LinkApi, transferId: string, reported: Reported, onState: OnState) {
  if (reported.length === 0) return;
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await api.completeDownload(transferId, reported);
      const bad = new Set(result.unverifiedFiles);
      for (const f of reported)
        onState(
          f.path,
          bad.has(f.path)
            ? { phase: "unverified", sha256: f.sha256 }
            : { phase: "verified", sha256: f.sha256! },
        );
      return;
    } catch (err) {
      const code = err instanceof ApiError ? err.fieldIssues[0]?.code : undefined;
      if (code !== "not_served" || attempt >= 10) throw err;
      await sleep(200 * (attempt + 1));
    }
  }
}

/** Downloads `paths` as one transfer, one browser download per file, and reports the hashes. */
export async function downloadFiles(api: LinkApi, paths: string[], onState: OnState) {
  const { transferId, transferSpec } = await api.startDownload(paths);
  const reported: Reported = [];
  const hasher = await createSHA256();
  for (const path of paths) onState(path, { phase: "waiting" });
  for (const path of paths) {
    onState(path, { phase: "downloading", received: 0 });
    hasher.init();
    let received = 0;
    try {
      const blob = await fetchBlob(
        `${transferSpec.node.files}?path=${encodeURIComponent(path)}`,
        transferSpec.token,
        (bytes) => {
          hasher.update(bytes);
          received += bytes.length;
          onState(path, { phase: "downloading", received });
        },
      );
      saveFile(blob, baseName(path));
      reported.push({ path, sha256: hasher.digest("hex") });
      onState(path, { phase: "checking" });
    } catch (err) {
      onState(path, { phase: "failed", message: (err as Error).message });
    }
  }
  await report(api, transferId, reported, onState);
}

/**
 * Downloads several files as one transfer and one ZIP (`zipName`): each entry is hashed as it
 * arrives and reported as its file's SHA-256. Only a whole ZIP is saved and reported: one cut
 * short leaves every file failed, as the recipient holds none of them.
 */
export async function downloadZip(
  api: LinkApi,
  files: { path: string; size: number }[],
  zipName: string,
  onState: OnState,
) {
  const paths = files.map((f) => f.path);
  const { transferId, transferSpec } = await api.startDownload(paths);
  const names = namesBelowCommonFolder(paths);
  const byName = new Map(names.map((name, i) => [name, files[i]!]));
  const hasher = await createSHA256();
  const reported: Reported = [];
  let current = "";
  let received = 0;
  for (const path of paths) onState(path, { phase: "waiting" });
  const zip = new StoredZipReader(
    {
      start(name) {
        current = byName.get(name)!.path;
        received = 0;
        hasher.init();
        onState(current, { phase: "downloading", received });
      },
      data(bytes) {
        hasher.update(bytes);
        received += bytes.length;
        onState(current, { phase: "downloading", received });
      },
      end() {
        reported.push({ path: current, sha256: hasher.digest("hex") });
        onState(current, { phase: "checking" });
      },
    },
    (name) => byName.get(name)?.size,
  );
  try {
    const blob = await fetchBlob(transferSpec.node.zip, transferSpec.token, (b) => zip.push(b));
    zip.finish();
    saveFile(blob, zipName);
    const got = new Set(reported.map((f) => f.path));
    for (const path of paths)
      if (!got.has(path)) onState(path, { phase: "failed", message: "Missing from the ZIP" });
  } catch (err) {
    for (const path of paths) onState(path, { phase: "failed", message: (err as Error).message });
    return;
  }
  await report(api, transferId, reported, onState);
}
