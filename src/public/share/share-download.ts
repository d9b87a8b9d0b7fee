import { createSHA256 } from "hash-wasm";
import { ApiError } from "@/browser/api-error";
import { saveFile } from "@/browser/save-file";
import { baseName } from "@/contract/rules";
import type { LinkApi } from "./share-api";

/*
 * The browser's receiving engine: fetches each file from the data node with the transfer's
 * token, hashes the bytes as they arrive (hash-wasm: WebCrypto cannot hash a stream) and saves
 * them through a Blob URL. The receipt trusts only this hash, never the node's header. The Blob
 * is held until the file is saved; Chromium keeps a large one on disk, not in memory.
 */

export type FileState =
  | { phase: "waiting" }
  | { phase: "downloading"; received: number }
  | { phase: "checking" }
  | { phase: "verified"; sha256: string }
  | { phase: "unverified"; sha256: string | null }
  | { phase: "failed"; message: string };

async function fetchAndHash(
  url: string,
  token: string,
  onProgress: (received: number) => void,
): Promise<{ blob: Blob; sha256: string }> {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  if (!res.ok || !res.body) {
    const data = await res.json().catch(() => null);
    throw new Error(data?.error?.message ?? `The download failed (${res.status})`);
  }
  const hasher = await createSHA256();
  const parts: Uint8Array[] = [];
  let received = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    hasher.update(value);
    parts.push(value);
    received += value.length;
    onProgress(received);
  }
  return { blob: new Blob(parts as BlobPart[]), sha256: hasher.digest("hex") };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Downloads `paths` as one transfer and reports the hashes. The node counts what it served a
 * moment after the last byte leaves, so a report refused as `not_served` is sent again shortly.
 */
export async function downloadFiles(
  api: LinkApi,
  paths: string[],
  onState: (path: string, state: FileState) => void,
) {
  const { transferId, transferSpec } = await api.startDownload(paths);
  const reported: { path: string; sha256: string | null }[] = [];
  for (const path of paths) onState(path, { phase: "waiting" });
  for (const path of paths) {
    onState(path, { phase: "downloading", received: 0 });
    try {
      const { blob, sha256 } = await fetchAndHash(
        `${transferSpec.node.files}?path=${encodeURIComponent(path)}`,
        transferSpec.token,
        (received) => onState(path, { phase: "downloading", received }),
      );
      saveFile(blob, baseName(path));
      reported.push({ path, sha256 });
      onState(path, { phase: "checking" });
    } catch (err) {
      onState(path, { phase: "failed", message: (err as Error).message });
    }
  }
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
