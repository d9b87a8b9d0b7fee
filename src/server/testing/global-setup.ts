import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { loadConfig } from "../env";
import { createKey } from "../modules/auth/keys.repository";
import { listMembers } from "../modules/members/members.repository";
import { startService } from "../server";

declare module "vitest" {
  export interface ProvidedContext {
    service: {
      baseUrl: string;
      workspaceId: string;
      keys: { admin: string; filesRead: string; noFiles: string };
    };
  }
}

/** One real service over HTTP for the console's unit tests (which must not import server code). */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-vitest-"));
  const service = await startService(
    loadConfig({
      DATA_DIR: dir,
      PORT: "0",
      LOG_LEVEL: "silent",
      DEMO_CONTENT: "0",
      STATIC_DIR: path.join(dir, "none"),
    }),
  );
  if (!service.boot.created) throw new Error("expected a fresh data dir");
  const { db, clock } = service.deps;
  const workspaceId = service.boot.workspace.id;
  const memberId = listMembers(db, workspaceId)[0]!.id;
  const make = (scopes: Parameters<typeof createKey>[1]["scopes"]) =>
    createKey(db, { workspaceId, memberId, scopes, expiresAt: null }, clock.now()).key;
  project.provide("service", {
    baseUrl: `${service.url}/v1`,
    workspaceId,
    keys: {
      admin: service.boot.adminKey,
      filesRead: make(["files:read"]),
      noFiles: make(["webhooks:manage"]),
    },
  });
  return async () => {
    await service.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
