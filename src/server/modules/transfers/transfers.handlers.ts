import type { RouteHandler } from "@hono/zod-openapi";
import { callerOf } from "@/server/http/caller";
import type { AppEnv } from "@/server/http/types";
import type * as r from "./transfers.routes";

export const createTransfer: RouteHandler<typeof r.createTransferRoute, AppEnv> = async (c) =>
  c.json(await c.get("deps").transfersStore.createTransfer(callerOf(c), c.req.valid("json")), 201);

export const listTransfers: RouteHandler<typeof r.listTransfersRoute, AppEnv> = async (c) =>
  c.json(
    await c
      .get("deps")
      .transfersStore.listTransfers(c.get("auth").workspaceId, c.req.valid("query")),
    200,
  );

export const getTransfer: RouteHandler<typeof r.getTransferRoute, AppEnv> = async (c) =>
  c.json(
    await c
      .get("deps")
      .transfersStore.getTransfer(c.get("auth").workspaceId, c.req.valid("param").transferId),
    200,
  );

export const updateTransfer: RouteHandler<typeof r.updateTransferRoute, AppEnv> = async (c) =>
  c.json(
    await c
      .get("deps")
      .transfersStore.updateTransfer(
        c.get("auth").workspaceId,
        c.req.valid("param").transferId,
        c.req.valid("json"),
      ),
    200,
  );
