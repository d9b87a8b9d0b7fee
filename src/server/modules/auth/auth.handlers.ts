import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "@/server/http/types";
import { toIso, toIsoOrNull } from "@/server/lib/clock";
import type { getKeyInfoRoute } from "./auth.routes";

export const getKeyInfo: RouteHandler<typeof getKeyInfoRoute, AppEnv> = async (c) => {
  const { key, workspace, member } = await c.get("deps").accessStore.keyInfo(c.get("auth"));
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
      workspace,
      member,
    },
    200,
  );
};
