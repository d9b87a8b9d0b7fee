import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PreviousUpload, UrlStorage } from "tus-js-client";
import type { CreatedTransfer } from "@/contract/transfers";

export const defaultStateDir = () => path.join(os.homedir(), ".consign", "agent");

/** What finished in an earlier run: a send's workspace paths, a receive's local paths. */
export interface DoneFile {
  path: string;
  size: number;
  sha256: string;
}

/** Writes whole, or not at all: a kill mid-write leaves the previous content. */
function writeAtomic(file: string, text: string) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/**
 * One unfinished transfer's state on disk, so that running the same command again resumes it:
 * the created transfer (its spec holds the node's token, so the folder is private, 0700/0600),
 * the files already done (an append-only log, one JSON line per file, cheap for 10,000 small
 * files), and the tus upload URLs of files in flight. Keyed by the command's inputs.
 */
export class TransferStateDir {
  readonly dir: string;
  private readonly uploads = new Map<string, Omit<PreviousUpload, "urlStorageKey">>();
  private uploadsLoaded = false;
  private nextKey = 0;

  constructor(stateDir: string, inputs: unknown) {
    const key = createHash("sha256").update(JSON.stringify(inputs)).digest("hex").slice(0, 32);
    this.dir = path.join(stateDir, key);
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  private file(name: string) {
    return path.join(this.dir, name);
  }

  created(): CreatedTransfer | null {
    try {
      return JSON.parse(fs.readFileSync(this.file("transfer.json"), "utf8")) as CreatedTransfer;
    } catch {
      return null;
    }
  }

  saveCreated(created: CreatedTransfer) {
    writeAtomic(this.file("transfer.json"), JSON.stringify(created));
  }

  done(): Map<string, DoneFile> {
    const out = new Map<string, DoneFile>();
    let text = "";
    try {
      text = fs.readFileSync(this.file("done.log"), "utf8");
    } catch {
      return out;
    }
    // A kill mid-append can leave a torn last line; that file is simply checked again.
    for (const line of text.split("\n")) {
      try {
        const d = JSON.parse(line) as DoneFile;
        out.set(d.path, d);
      } catch {}
    }
    return out;
  }

  markDone(d: DoneFile) {
    fs.appendFileSync(this.file("done.log"), `${JSON.stringify(d)}\n`, { mode: 0o600 });
  }

  /** Starts over: the transfer ended (or can no longer be resumed). */
  clear() {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /** tus-js-client's URL storage, kept in uploads.json and written on every change. */
  readonly urlStorage: UrlStorage = {
    findAllUploads: async () => this.uploadList(""),
    findUploadsByFingerprint: async (fingerprint) => this.uploadList(`tus::${fingerprint}::`),
    removeUpload: async (key) => {
      this.loadUploads();
      if (this.uploads.delete(key)) this.saveUploads();
    },
    addUpload: async (fingerprint, upload) => {
      this.loadUploads();
      const key = `tus::${fingerprint}::${Date.now()}-${this.nextKey++}`;
      const { urlStorageKey: _, ...rest } = upload;
      this.uploads.set(key, rest);
      this.saveUploads();
      return key;
    },
  };

  private uploadList(prefix: string): PreviousUpload[] {
    this.loadUploads();
    return [...this.uploads]
      .filter(([key]) => key.startsWith(prefix))
      .map(([urlStorageKey, u]) => ({ ...u, urlStorageKey }));
  }

  private loadUploads() {
    if (this.uploadsLoaded) return;
    this.uploadsLoaded = true;
    try {
      const saved = JSON.parse(fs.readFileSync(this.file("uploads.json"), "utf8"));
      for (const [k, v] of Object.entries(saved))
        this.uploads.set(k, v as Omit<PreviousUpload, "urlStorageKey">);
    } catch {}
  }

  private saveUploads() {
    writeAtomic(this.file("uploads.json"), JSON.stringify(Object.fromEntries(this.uploads)));
  }
}
