import type { PortalUpload } from "@/contract/portals";

/**
 * A file's path as the inspector lists it: inside its upload's folder (`shots/a.mov`). The
 * record names each file's workspace path under `folderPath`, also once approval moved it.
 */
export function shownPath(upload: Pick<PortalUpload, "folderPath">, path: string): string {
  const prefix = `${upload.folderPath}/`;
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}
