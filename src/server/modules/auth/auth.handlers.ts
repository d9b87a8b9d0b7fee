import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "@/server/http/types";
import { toIso, toIsoOrNull } from "@/server/lib/clock";
import { getMember } from "@/server/modules/members/members.repository";
import { getWorkspace } from "@/server/modules/workspaces/workspaces.repository";
import type { getKeyInfoRoute } from "./auth.routes";
import { getKey } from "./keys.repository";

export const getKeyInfo: RouteHandler<typeof getKeyInfoRoute, AppEnv> = (c) => {
  const { db } = c.get("deps");
  const auth = c.get("auth");
  // Authentication just proved all three exist and are live.
  const key = getKey(db, auth.keyId)!;
  const workspace = getWorkspace(db, auth.workspaceId)!;
  const member = getMember(db, auth.memberId)!;
  return c.json(
    {
      key: {
        id: key.id,
        name: key.name,
        hint: key.hint,
        scopes: key.scopes,
        expiresAt: toIsoOrNull(key.expiresAt),
        createdAt: toIso(key.createdAt),
      },
      workspace: { id: workspace.id, name: workspace.name },
      member: { id: member.id, name: member.name, email: member.email, role: member.role },
    },
    200,
  );
};
