import { scopes } from "@/contract/common";
import type { AppDeps } from "./deps";
import { createKey } from "./modules/auth/keys.repository";
import { addMember } from "./modules/members/members.repository";
import {
  createWorkspace,
  listWorkspaces,
  type WorkspaceRow,
} from "./modules/workspaces/workspaces.repository";

export const FIRST_ADMIN_EMAIL = "admin@consign.local";

export type BootstrapResult =
  | { created: true; workspace: WorkspaceRow; adminKey: string }
  | { created: false; workspace: WorkspaceRow };

/**
 * The first start on an empty data dir creates the workspace, its first admin and an admin
 * key with every scope. The key's plaintext exists only in this return value.
 */
export function bootstrap(deps: AppDeps): BootstrapResult {
  const { db, clock, events, config } = deps;
  const existing = listWorkspaces(db)[0];
  if (existing) return { created: false, workspace: existing };
  return db.transaction((): BootstrapResult => {
    const now = clock.now();
    const workspace = createWorkspace(db, config.workspaceName, now);
    const admin = addMember(
      db,
      events,
      { workspaceId: workspace.id, email: FIRST_ADMIN_EMAIL, name: "Admin", role: "admin" },
      now,
    );
    const { key } = createKey(
      db,
      {
        workspaceId: workspace.id,
        memberId: admin.id,
        scopes: [...scopes],
        expiresAt: null,
        name: "First start",
      },
      now,
    );
    return { created: true, workspace, adminKey: key };
  })();
}
