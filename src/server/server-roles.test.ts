import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "./env";
import { type RunningService, startService } from "./server";
import { startTempService } from "./testing/temp-service";

/**
 * Processes that split the work by ROLES on one data set (here SQLite, which several processes
 * on one machine share): the API answers and enqueues, another process runs the jobs.
 */
describe("ROLES", () => {
  let api: Awaited<ReturnType<typeof startTempService>>;
  let workers: RunningService;
  let node: RunningService;
  const start = (roles: string) =>
    startService(
      loadConfig({
        DATA_DIR: api.dir,
        PORT: "0",
        LOG_LEVEL: "silent",
        DEMO_CONTENT: "0",
        STATIC_DIR: path.join(api.dir, "none"),
        ROLES: roles,
      }),
    );

  beforeAll(async () => {
    api = await startTempService("consign-roles-", { env: { ROLES: "api" } });
    workers = await start("workers");
    node = await start("node");
  });
  afterAll(async () => {
    await Promise.all([api?.service.stop(), workers?.stop(), node?.stop()]);
    if (api) fs.rmSync(api.dir, { recursive: true, force: true });
  });

  const call = (base: string, method: string, rest: string, body?: unknown) =>
    fetch(`${base}/v1/workspaces/${api.boot.workspace.id}${rest}`, {
      method,
      headers: { Authorization: `Bearer ${api.boot.adminKey}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("runs a job the API process queued in the workers process", async () => {
    const base = api.service.url;
    for (const folder of ["src/inner", "dst"]) {
      expect((await call(base, "POST", "/files/folder", { path: folder })).status).toBe(201);
    }
    const started = await call(base, "POST", "/files/operations", {
      kind: "copy",
      paths: ["src"],
      destination: "dst",
    });
    expect(started.status).toBe(201);
    const { id } = (await started.json()) as { id: string };
    let status = "queued";
    for (let i = 0; i < 100 && !["completed", "failed"].includes(status); i++) {
      await new Promise((r) => setTimeout(r, 100));
      const r = await call(base, "GET", `/files/operations/${id}`);
      status = ((await r.json()) as { status: string }).status;
    }
    expect(status).toBe("completed");
    const listed = await call(base, "GET", "/files?path=dst/src");
    expect(listed.status).toBe(200);
  });

  it("answers only what its roles serve, in the error envelope", async () => {
    for (const base of [workers.url, node.url]) {
      const r = await call(base, "GET", "/files");
      expect(r.status).toBe(404);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe("not_found");
    }
    const nodeAnswer = await fetch(`${node.url}/node/v1/uploads`, { method: "OPTIONS" });
    expect(nodeAnswer.headers.get("Tus-Version")).toBe("1.0.0");
    const apiNode = await fetch(`${api.service.url}/node/v1/uploads`, { method: "OPTIONS" });
    expect(apiNode.status).toBe(404);
    expect(apiNode.headers.get("Tus-Version")).toBeNull();
  });

  it("refuses a role it does not know at start", () => {
    expect(() => loadConfig({ ROLES: "api,cron" })).toThrow(/ROLES/);
    expect(() => loadConfig({ ROLES: "" })).toThrow(/ROLES/);
  });
});
