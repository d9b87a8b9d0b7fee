import { DiskBlobStore } from "@/server/modules/files/blob-store";
import type { FilesService } from "@/server/modules/files/files.service";

/** The files service's blob store, for a test that looks at the disk store's own files. */
export function diskBlobs(files: FilesService): DiskBlobStore {
  if (!(files.blobs instanceof DiskBlobStore)) throw new Error("expected the disk blob store");
  return files.blobs;
}
