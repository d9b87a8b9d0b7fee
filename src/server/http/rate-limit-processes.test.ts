import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/env";
import { type RunningService, startService } from "@/server/server";
import { createPgDatabase } from "@/server/testing/pg-database";
import { startTempService } from "@/server/testing/temp-service";

// PostgreSQL only: two service processes' worth (two services on one data dir, each with its
// own connections) behind one DATABASE_URL share a key's allowance and an address's.
describe("the rate limit across service processes", () => {
  let pg: Awaited<ReturnType<typeof createPgDatabase>>;
  let first: Awaited<ReturnType<typeof startTempService>>;
  let second: RunningService;
  const limit = 6;

  beforeAll(async () => {
    pg = await createPgDatabase();
    const env = {
      DATABASE_URL: pg.url,
      RATE_LIMIT_PER_MINUTE: String(limit),
      RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: String(limit),
    };
    first = await startTempService("consign-rate-", { env });
    second = await startService(
      loadConfig({
        DATA_DIR: first.dir,
        PORT: "0",
        LOG_LEVEL: "silent",
        DEMO_CONTENT: "0",
        STATIC_DIR: path.join(first.dir, "none"),
        ...env,
      }),
      { workers: false },
    );
  });
  afterAll(async () => {
    await Promise.all([first?.service.stop(), second?.stop()]);
    await pg?.drop();
    if (first) fs.rmSync(first.dir, { recursive: true, force: true });
  });

  const workspaces = (base: string, key?: string) =>
    fetch(
      `${base}/v1/workspaces/${first.boot.workspace.id}/files`,
      key ? { headers: { Authorization: `Bearer ${key}` } } : {},
    );

  it("counts a key's requests together, whichever process answers", async () => {
    const key = first.boot.adminKey;
    const statuses: number[] = [];
    for (let i = 0; i < limit + 2; i++) {
      const r = await workspaces(i % 2 ? second.url : first.service.url, key);
      statuses.push(r.status);
      if (r.status === 429) {
        expect(r.headers.get("Retry-After")).toMatch(/^\d+$/);
        expect(((await r.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
      } else {
        expect(r.headers.get("RateLimit-Remaining")).toBe(String(Math.max(0, limit - i - 1)));
      }
    }
    expect(statuses).toEqual([...Array(limit).fill(200), 429, 429]);
  });

  it("counts requests without a key per address together too", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < limit + 1; i++) {
      statuses.push((await workspaces(i % 2 ? second.url : first.service.url)).status);
    }
    expect(statuses).toEqual([...Array(limit).fill(401), 429]);
  });
});
