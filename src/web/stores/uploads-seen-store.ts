import { create } from "zustand";

/**
 * Where this browser's unfinished uploads are kept (uploads-store), apart from the store so the
 * shell can tell whether there are any without loading the store and its persistence.
 */
export const UPLOADS_STORAGE_KEY = "consign.uploads";

/** Whether an earlier page left unfinished uploads behind (to resume when files are re-picked). */
function hasStoredUploads(): boolean {
  try {
    const raw = localStorage.getItem(UPLOADS_STORAGE_KEY);
    const uploads = raw ? (JSON.parse(raw) as { uploads?: object }).uploads : null;
    return !!uploads && Object.keys(uploads).length > 0;
  } catch {
    return false;
  }
}

/**
 * Whether this browser has uploads to show: one started in this tab, or unfinished ones left by
 * an earlier page. The shell loads the uploads' badge and tray once it has.
 */
export const useUploadsSeen = create<{ seen: boolean }>()(() => ({ seen: hasStoredUploads() }));
