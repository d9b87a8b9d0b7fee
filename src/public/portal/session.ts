import type { PortalConfirmation } from "@/contract/portal-public";
import type { TransferSpec } from "@/contract/transfers";
import type { Fingerprint } from "./portal-model";

/*
 * What survives a reload. An upload under way is kept in localStorage (a closed tab, a crash)
 * with its transfer spec, so the page can ask for the same files again and tus go on from the
 * node's offset; the spec's token is bound to this upload's folder alone. The confirmation is
 * kept for the tab (sessionStorage): a reload still shows it, a new visit starts afresh.
 */

export interface StoredFile extends Fingerprint {
  done: boolean;
  /** This browser's SHA-256 of the file, once it read it (sent to the node as metadata). */
  sha256: string | null;
}

export interface StoredUpload {
  uploadId: string;
  spec: TransferSpec;
  files: StoredFile[];
  startedAt: number;
}

export interface StoredConfirmation {
  confirmation: PortalConfirmation;
  localHashes: Record<string, string>;
}

const uploadKey = (slug: string) => `consign-portal-upload:${slug}`;
const confirmationKey = (slug: string) => `consign-portal-confirmation:${slug}`;
/** tus keeps each upload URL under `tus::<fingerprint>::<n>`; ours start with this. */
export const fingerprintPrefix = (uploadId: string) => `consign-portal:${uploadId}:`;

function read<T>(storage: Storage, key: string): T | null {
  try {
    const raw = storage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function write(storage: Storage, key: string, value: unknown) {
  try {
    storage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or refused (private mode): only resuming after a reload is lost.
  }
}

/**
 * The Web Lock a tab holds while it runs an upload; the browser lets go of it when the tab
 * closes or crashes. Another tab that finds it held must not push the same files too.
 */
export const uploadLockName = (uploadId: string) => `consign-portal-upload:${uploadId}`;

type Locks = Pick<LockManager, "query">;

/** Whether another tab of this browser runs the upload (false where Web Locks are missing). */
export async function runningElsewhere(
  uploadId: string,
  locks: Locks | undefined = navigator.locks,
): Promise<boolean> {
  if (!locks) return false;
  try {
    const { held } = await locks.query();
    return held?.some((l) => l.name === uploadLockName(uploadId)) ?? false;
  } catch {
    return false;
  }
}

export const loadUpload = (slug: string, storage: Storage = localStorage) =>
  read<StoredUpload>(storage, uploadKey(slug));

export const saveUpload = (slug: string, u: StoredUpload, storage: Storage = localStorage) =>
  write(storage, uploadKey(slug), u);

/** Forgets an upload that ended, with the upload URLs tus kept for its files. */
export function clearUpload(slug: string, uploadId: string, storage: Storage = localStorage) {
  storage.removeItem(uploadKey(slug));
  const prefix = `tus::${fingerprintPrefix(uploadId)}`;
  const stale: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key?.startsWith(prefix)) stale.push(key);
  }
  for (const key of stale) storage.removeItem(key);
}

export const loadConfirmation = (slug: string, storage: Storage = sessionStorage) =>
  read<StoredConfirmation>(storage, confirmationKey(slug));

export const saveConfirmation = (
  slug: string,
  c: StoredConfirmation,
  storage: Storage = sessionStorage,
) => write(storage, confirmationKey(slug), c);

export const clearConfirmation = (slug: string, storage: Storage = sessionStorage) =>
  storage.removeItem(confirmationKey(slug));
