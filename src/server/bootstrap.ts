import { scopes } from "@/contract/common";
import type { AppDeps } from "./deps";
import type { Config } from "./env";
import { createKey, type NewKey } from "./modules/auth/keys.repository";
import { addMember, type NewMember } from "./modules/members/members.repository";
import {
  createWorkspace,
  listWorkspaces,
  type WorkspaceRow,
} from "./modules/workspaces/workspaces.repository";

export const FIRST_ADMIN_EMAIL = "admin@consign.local";

export type BootstrapResult =
  | { created: true; workspace: WorkspaceRow; adminKey: string }
  | { created: false; workspace: WorkspaceRow };

/** The first admin of a new workspace, and its key with every scope (both engines make them). */
export const firstAdmin = (workspaceId: string): NewMember => ({
  workspaceId,
  email: FIRST_ADMIN_EMAIL,
  name: "Admin",
  role: "admin",
});
export const firstKey = (workspaceId: string, memberId: string): NewKey => ({
  workspaceId,
  memberId,
  scopes: [...scopes],
  expiresAt: null,
  name: "First start",
});

/**
 * The first start on an empty data dir creates the workspace, its first admin and an admin
 * key with every scope. The key's plaintext exists only in this return value. On SQLite, run it
 * under the write lock (DirectoryStore.bootstrap does), so two processes make one workspace.
 */
export function bootstrap(
  deps: Pick<AppDeps, "db" | "clock" | "events"> & { config: Pick<Config, "workspaceName"> },
): BootstrapResult {
  const { db, clock, events, config } = deps;
  const existing = listWorkspaces(db)[0];
  if (existing) return { created: false, workspace: existing };
  return db.transaction((): BootstrapResult => {
    const now = clock.now();
    const workspace = createWorkspace(db, config.workspaceName, now);
    const admin = addMember(db, events, firstAdmin(workspace.id), now);
    const { key } = createKey(db, firstKey(workspace.id, admin.id), now);
    return { created: true, workspace, adminKey: key };
  })();
}
