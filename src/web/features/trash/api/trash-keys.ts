import { filesKeys } from "../../files/api/files-keys";

/**
 * Under the files prefix on purpose: moving files to the trash invalidates `["files", ws,
 * "trash"]` from the Files page, and that must reach this list too.
 */
export const trashKeys = {
  all: (workspaceId: string) => [...filesKeys.all(workspaceId), "trash"] as const,
  list: (workspaceId: string) => [...trashKeys.all(workspaceId), "list"] as const,
};
