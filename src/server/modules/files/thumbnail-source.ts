import { type MediaKind, thumbnailKindOf } from "@/contract/media-rules";
import { notFound, validationFailed } from "@/server/lib/api-error";
import { protectionOf } from "./files.repository";
import type { FilesService } from "./files.service";
import { versionById, versionProtection } from "./versions.repository";

/** The content a thumbnail is asked of: its hash and its kind. */
export interface ThumbnailSource {
  sha256: string;
  kind: MediaKind;
}

/**
 * The live content of the file at `path`, or one of its kept versions (`version`), if it is a
 * kind the service draws. A folder, another type and protected content are 400 `no_preview`;
 * an unknown path or a version of another file 404.
 */
export function thumbnailSource(
  files: FilesService,
  workspaceId: string,
  query: { path: string; version?: string | undefined },
): ThumbnailSource {
  const entry = files.get(workspaceId, query.path);
  const version = query.version ? versionById(files.db, workspaceId, query.version) : null;
  if (query.version && version?.entry_id !== entry.id)
    throw notFound(`Version ${query.version} of "${query.path}"`, { version: query.version });
  const content = version ?? (entry.is_file ? { sha256: entry.sha256!, mime: entry.mime } : null);
  const kind = thumbnailKindOf(content?.mime);
  if (!content || !kind)
    throw validationFailed(
      "query.path",
      `"${query.path}" has no thumbnail: images, videos, PDFs and audio files do`,
      "no_preview",
    );
  // Encrypted at rest (content protection): only an engine with the password reads it.
  const protectedContent = version
    ? versionProtection(files.db, version.id)
    : protectionOf(files.db, entry.id);
  if (protectedContent)
    throw validationFailed("query.path", `"${query.path}" is protected content`, "no_preview");
  return { sha256: content.sha256, kind };
}
