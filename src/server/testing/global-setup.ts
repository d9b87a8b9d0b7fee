import fs from "node:fs";
import type { TestProject } from "vitest/node";
import { createKey } from "@/server/modules/auth/keys.repository";
import { listMembers } from "@/server/modules/members/members.repository";
import { startTempService } from "./temp-service";

declare module "vitest" {
  export interface ProvidedContext {
    service: {
      baseUrl: string;
      workspaceId: string;
      keys: { admin: string; filesRead: string; noFiles: string };
    };
    /** A second service with a tiny rate budget, so a console test meets a real 429 at once. */
    throttledService: { baseUrl: string; workspaceId: string; key: string; limit: number };
  }
}

/** One real service over HTTP for the console's unit tests (which must not import server code). */
export default async function setup(project: TestProject) {
  const { service, boot, dir } = await startTempService("consign-vitest-");
  const { db, clock } = service.deps;
  const workspaceId = boot.workspace.id;
  const memberId = listMembers(db, workspaceId)[0]!.id;
  const make = (scopes: Parameters<typeof createKey>[1]["scopes"]) =>
    createKey(db, { workspaceId, memberId, scopes, expiresAt: null }, clock.now()).key;
  project.provide("service", {
    baseUrl: `${service.url}/v1`,
    workspaceId,
    keys: {
      admin: boot.adminKey,
      filesRead: make(["files:read"]),
      noFiles: make(["webhooks:manage"]),
    },
  });
  const throttledLimit = 3;
  const throttled = await startTempService("consign-vitest-throttled-", {
    env: { RATE_LIMIT_PER_MINUTE: String(throttledLimit), RATE_LIMIT_WINDOW_SECONDS: "2" },
  });
  project.provide("throttledService", {
    baseUrl: `${throttled.service.url}/v1`,
    workspaceId: throttled.boot.workspace.id,
    key: throttled.boot.adminKey,
    limit: throttledLimit,
  });
  return async () => {
    await Promise.all([service.stop(), throttled.service.stop()]);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(throttled.dir, { recursive: true, force: true });
  };
}
