import { filesKeys } from "./files";

/**
 * Under the files prefix on purpose: invalidating everything under files (a restore, a
 * version restore) reaches the trash list too.
 */
export const trashKeys = {
  all: (workspaceId: string) => [...filesKeys.all(workspaceId), "trash"] as const,
  list: (workspaceId: string) => [...trashKeys.all(workspaceId), "list"] as const,
};
