import { workspacePath } from "@/web/lib/api-client";
import type { UploadsFilter } from "./review-cache";

export type { UploadsFilter };

/**
 * Keys derive from the request. Thumbnails are not here: they are files' previews
 * (lib/file-preview), so nothing that refreshes portals or uploads fetches them again.
 */
export const portalsKeys = {
  all: (workspaceId: string) => ["portals", workspaceId] as const,
  list: (workspaceId: string) => [...portalsKeys.all(workspaceId), "list"] as const,
  one: (workspaceId: string, id: string) => [...portalsKeys.all(workspaceId), "one", id] as const,
  uploadLists: (workspaceId: string) => [...portalsKeys.all(workspaceId), "uploads"] as const,
  uploads: (workspaceId: string, filter: UploadsFilter) =>
    [...portalsKeys.uploadLists(workspaceId), filter] as const,
  notes: (workspaceId: string, uploadId: string) =>
    [...portalsKeys.all(workspaceId), "notes", uploadId] as const,
};

export const portalsPath = (rest = "") => workspacePath(`/portals${rest}`);
export const portalPath = (id: string, rest = "") =>
  portalsPath(`/${encodeURIComponent(id)}${rest}`);
export const uploadNotesPath = (uploadId: string, rest = "") =>
  workspacePath(`/portal-uploads/${encodeURIComponent(uploadId)}/notes${rest}`);

/** Small, so the queue's first rows show at once even with thousands waiting; then larger. */
export const UPLOADS_FIRST_PAGE = 50;
export const UPLOADS_PAGE = 200;
