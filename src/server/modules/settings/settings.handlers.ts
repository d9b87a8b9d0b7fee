import type { RouteHandler } from "@hono/zod-openapi";
import { LOGO_UPLOAD_MAX_BYTES } from "@/contract/settings-rules";
import type { AppEnv } from "@/server/http/types";
import type * as r from "./settings.routes";
import * as settings from "./settings.service";

export const getSettings: RouteHandler<typeof r.getSettingsRoute, AppEnv> = async (c) =>
  c.json(await c.get("deps").settingsStore.getWorkspaceSettings(c.get("auth").workspaceId), 200);

export const updateSettings: RouteHandler<typeof r.updateSettingsRoute, AppEnv> = async (c) =>
  c.json(
    await c
      .get("deps")
      .settingsStore.updateWorkspaceSettings(c.get("auth").workspaceId, c.req.valid("json")),
    200,
  );

export const getLogo: RouteHandler<typeof r.getLogoRoute, AppEnv> = (c) => {
  const logo = settings.logoPng(c.get("deps"), c.get("auth").workspaceId);
  return c.body(new Uint8Array(logo.png), 200, {
    "Content-Type": "image/png",
    "Cache-Control": "private, no-cache",
  }) as never;
};

export const putLogo: RouteHandler<typeof r.putLogoRoute, AppEnv> = async (c) => {
  // Refused from its announced length before any byte is read; a body without one is counted.
  const announced = Number(c.req.header("content-length") ?? 0);
  if (announced > LOGO_UPLOAD_MAX_BYTES) throw settings.logoTooLarge(announced);
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  return c.json(await settings.setLogo(c.get("deps"), c.get("auth").workspaceId, bytes), 200);
};

export const deleteLogo: RouteHandler<typeof r.deleteLogoRoute, AppEnv> = (c) => {
  settings.removeLogo(c.get("deps"), c.get("auth").workspaceId);
  return c.json({ ok: true }, 200);
};
