import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { UserConfig } from "vite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@/server/testing/test-app";

let t: TestApp;
let staticDir: string;
beforeEach(async () => {
  staticDir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-dist-"));
  fs.mkdirSync(path.join(staticDir, "assets"));
  fs.writeFileSync(path.join(staticDir, "index.html"), "<!doctype html><title>Consign</title>");
  fs.writeFileSync(path.join(staticDir, "assets", "app-1a2b.js"), "console.log(1)");
  fs.writeFileSync(path.join(staticDir, "assets", "app-1a2b.js.map"), '{"sources":["app.tsx"]}');
  t = await createTestApp({ config: { staticDir } });
});
afterEach(async () => {
  await t.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

describe("the built console", () => {
  it("is built without source maps", async () => {
    const config = (await import(path.resolve("vite.config.ts"))).default as UserConfig;
    expect(config.build?.sourcemap ?? false).toBe(false);
  });

  it("never serves a source map, even one a build left beside the scripts", async () => {
    expect((await t.app.request("/assets/app-1a2b.js")).status).toBe(200);
    const map = await t.app.request("/assets/app-1a2b.js.map");
    expect(map.status).toBe(404);
    expect(await map.text()).not.toContain("sources");
  });
});
