import type { z } from "zod";
import type {
  BulkReviewResult,
  bulkReviewBodySchema,
  listPortalUploadsQuerySchema,
  PortalUploadsPage,
  reviewBodySchema,
  UploadNote,
  UploadNotes,
} from "@/contract/portal-review";
import type {
  createPortalBodySchema,
  Portal,
  PortalDetail,
  PortalUpload,
  updatePortalBodySchema,
} from "@/contract/portals";
import type { AppDeps } from "@/server/deps";
import type { Caller } from "@/server/http/caller";
import { reviewUploads } from "./bulk-review.service";
import { createPortal, getPortal, listPortals, updatePortal } from "./portals.service";
import { listUploads, reviewUpload } from "./review.service";
import {
  addUploadNote,
  listUploadNotes,
  type NoteBody,
  removeUploadNote,
} from "./upload-notes.service";

export type UploadsQuery = z.output<typeof listPortalUploadsQuerySchema>;
export type ReviewBody = z.output<typeof reviewBodySchema>;
export type BulkReviewBody = z.output<typeof bulkReviewBodySchema>;
export type CreateBody = z.output<typeof createPortalBodySchema>;
export type UpdateBody = z.output<typeof updatePortalBodySchema>;

/**
 * The portals area's metadata port (docs/scale-out.md, Portals metadata): one async call per
 * console unit of work. SQLite's implementation (below) runs today's service code inside the
 * call; PostgreSQL's is portals-store.pg.ts. Both answer alike, errors and events included
 * (portals-store.test.ts).
 */
export interface PortalsStore {
  /** The review queue: newest first, a page after `cursor`, `total` matching the filter. */
  listUploads(workspaceId: string, query: UploadsQuery): Promise<PortalUploadsPage>;
  /**
   * One decision, with an approval's move into `approvedPath` (a move job) or an undo's move
   * back, the sender's mail and `portal.upload.reviewed`, in one transaction. 404 for an unknown
   * portal or upload, `not_received` before its files landed, 409 `conflict` for an undo whose
   * place is taken.
   */
  reviewUpload(
    caller: Caller,
    portalId: string,
    uploadId: string,
    body: ReviewBody,
  ): Promise<PortalUpload>;
  /**
   * One decision for up to 100 uploads in one transaction, each as reviewUpload decides one, in a
   * savepoint of its own: `decided` in the order asked, `refused` with each one's reason.
   */
  reviewUploads(caller: Caller, body: BulkReviewBody): Promise<BulkReviewResult>;
  /** Newest first, with each one's uploads awaiting review. */
  listPortals(workspaceId: string, origin: string): Promise<Portal[]>;
  /** One portal and its newest uploads; 404 for an unknown id. */
  getPortal(workspaceId: string, portalId: string, origin: string): Promise<PortalDetail>;
  /** A new active portal, its invitations in the outbox, `portal.created`. */
  createPortal(caller: Caller, body: CreateBody): Promise<Portal>;
  /** The members given replace what is stored; a revoked portal is refused (`revoked`). */
  updatePortal(
    workspaceId: string,
    portalId: string,
    body: UpdateBody,
    origin: string,
  ): Promise<Portal>;
  /** An upload's review notes, oldest first (UPLOAD_NOTES_MAX); 404 for an unknown upload. */
  listUploadNotes(workspaceId: string, uploadId: string): Promise<UploadNotes>;
  /**
   * A note by the caller's member, its anchor checked against the upload's files; 409 `conflict`
   * past UPLOAD_NOTES_MAX. No event.
   */
  addUploadNote(caller: Caller, uploadId: string, body: NoteBody): Promise<UploadNote>;
  /** Its author only (403 `not_the_author`); 404 for an unknown note. */
  removeUploadNote(caller: Caller, uploadId: string, noteId: string): Promise<void>;
}

/** The embedded engine: the portals services' transactions, unchanged, inside each call. */
export class SqlitePortalsStore implements PortalsStore {
  /** The services take the whole AppDeps, which holds this store: read when a call runs. */
  constructor(private readonly depsOf: () => AppDeps) {}

  private get deps() {
    return this.depsOf();
  }

  async listUploads(workspaceId: string, query: UploadsQuery) {
    return listUploads(this.deps, workspaceId, query);
  }

  async reviewUpload(caller: Caller, portalId: string, uploadId: string, body: ReviewBody) {
    return reviewUpload(this.deps, caller, portalId, uploadId, body);
  }

  async reviewUploads(caller: Caller, body: BulkReviewBody) {
    return reviewUploads(this.deps, caller, body);
  }

  async listPortals(workspaceId: string, origin: string) {
    return listPortals(this.deps, workspaceId, origin);
  }

  async getPortal(workspaceId: string, portalId: string, origin: string) {
    return getPortal(this.deps, workspaceId, portalId, origin);
  }

  createPortal(caller: Caller, body: CreateBody) {
    return createPortal(this.deps, caller, body);
  }

  updatePortal(workspaceId: string, portalId: string, body: UpdateBody, origin: string) {
    return updatePortal(this.deps, workspaceId, portalId, body, origin);
  }

  async listUploadNotes(workspaceId: string, uploadId: string) {
    return listUploadNotes(this.deps, workspaceId, uploadId);
  }

  async addUploadNote(caller: Caller, uploadId: string, body: NoteBody) {
    return addUploadNote(this.deps, caller, uploadId, body);
  }

  async removeUploadNote(caller: Caller, uploadId: string, noteId: string) {
    removeUploadNote(this.deps, caller, uploadId, noteId);
  }
}
