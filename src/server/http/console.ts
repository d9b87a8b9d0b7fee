import fs from "node:fs";
import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { SHARE_LINK_PREFIX } from "@/contract/rules";
import type { AppDeps } from "@/server/deps";
import type { AppEnv } from "./types";

/** The built console, when there is one: hashed assets cached for good, every other path gets the SPA. */
export function serveConsole(app: OpenAPIHono<AppEnv>, deps: AppDeps) {
  const root = deps.config.staticDir;
  const indexFile = path.join(root, "index.html");
  if (!fs.existsSync(indexFile)) return;
  const relativeRoot = path.relative(process.cwd(), root) || ".";
  app.use("/assets/*", async (c, next) => {
    await next();
    if (c.res.status === 200) c.header("Cache-Control", "public, max-age=31536000, immutable");
  });
  // Source maps would hand anyone the console's original source; a build that made them
  // anyway (vite build --sourcemap) still does not serve them.
  app.use("*", async (c, next) =>
    c.req.path.startsWith("/v1/") || c.req.path.endsWith(".map")
      ? next()
      : serveStatic({ root: relativeRoot })(c, next),
  );
  // The recipient page: its own light entry (share.html), never the console.
  const shareFile = path.join(root, "share.html");
  app.get(`${SHARE_LINK_PREFIX}*`, async (c) => {
    c.header("Cache-Control", "no-cache");
    return c.html(await fs.promises.readFile(shareFile, "utf8"));
  });
  // The portal page (`/p/{slug}`, PORTAL_LINK_PREFIX): a light entry of its own too (portal.html).
  const portalFile = path.join(root, "portal.html");
  app.get("/p/*", async (c) => {
    c.header("Cache-Control", "no-cache");
    return c.html(await fs.promises.readFile(portalFile, "utf8"));
  });
  app.get("*", async (c, next) => {
    if (c.req.path.startsWith("/v1/") || c.req.path.startsWith("/assets/")) return next();
    c.header("Cache-Control", "no-cache");
    return c.html(await fs.promises.readFile(indexFile, "utf8"));
  });
}
