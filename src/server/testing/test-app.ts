import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Hono } from "hono";
import { hc } from "hono/client";
import { afterEach, beforeEach } from "vitest";
import type { Scope } from "@/contract/common";
import { createApp } from "@/server/app";
import { bootstrap } from "@/server/bootstrap";
import { createDeps } from "@/server/deps";
import { type Config, testConfig } from "@/server/env";
import { type Clock, ManualClock } from "@/server/lib/clock";
import { createKey } from "@/server/modules/auth/keys.repository";
import { listMembers } from "@/server/modules/members/members.repository";
import { registerWorkers } from "@/server/workers";

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/**
 * The real service in-process on a temporary data dir: real SQLite, real files, the real app,
 * requests through Hono's fetch interface. Workers are registered but not started; tests drive
 * them with `deps.jobs.runDue()` and the manual clock.
 */
export async function createTestApp(opts: { clock?: Clock; config?: Partial<Config> } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-test-"));
  const clock = opts.clock ?? new ManualClock(Date.now());
  const deps = createDeps(testConfig(dir, opts.config), { clock });
  const boot = bootstrap(deps);
  if (!boot.created) throw new Error("expected a fresh data dir");
  const { adminKey } = boot;
  const stopWorkers = await registerWorkers(deps, boot, { threads: false });
  const app = createApp(deps);
  const workspaceId = boot.workspace.id;
  const adminId = listMembers(deps.db, workspaceId)[0]!.id;

  const keyWith = (scopes: Scope[], extra: { expiresAt?: number | null; memberId?: string } = {}) =>
    createKey(
      deps.db,
      {
        workspaceId,
        memberId: extra.memberId ?? adminId,
        scopes,
        expiresAt: extra.expiresAt ?? null,
      },
      clock.now(),
    ).key;

  async function call(method: string, url: string, o: CallOptions = {}) {
    const key = o.key === undefined ? adminKey : o.key;
    const headers: Record<string, string> = { ...o.headers };
    if (key) headers.Authorization = `Bearer ${key}`;
    let body: string | undefined = o.rawBody;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers["Content-Type"] = "application/json";
    }
    const res = await app.request(url.startsWith("/v1") ? url : `/v1${url}`, {
      method,
      headers,
      body,
    });
    const text = await res.text();
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response members
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: res.status, headers: res.headers, json, text };
  }

  /**
   * A typed client for one module's router (Hono RPC), sent through the whole app so auth, rate
   * limits and error handling run as in production. Bodies, params and responses are checked
   * against the router's contract types; a test of bad input casts its body (`as never`).
   */
  // biome-ignore lint/suspicious/noExplicitAny: any router's env, schema and base path
  function client<R extends Hono<any, any, any>>(_router: R, o: { key?: string | null } = {}) {
    const key = o.key === undefined ? adminKey : o.key;
    return hc<R>("http://consign.test/v1", {
      fetch: (input: RequestInfo | URL, init?: RequestInit) => app.request(input, init),
      headers: key ? { Authorization: `Bearer ${key}` } : {},
    });
  }

  return {
    app,
    client,
    /** The path parameter every workspace route takes. */
    ws: { workspaceId },
    deps,
    clock,
    dir,
    workspaceId,
    adminKey,
    adminId,
    /** `/v1/workspaces/<id>` + suffix */
    w: (suffix: string) => `/v1/workspaces/${workspaceId}${suffix}`,
    keyWith,
    call,
    async close() {
      await stopWorkers();
      await deps.jobs.flush();
      deps.db.close();
      await deps.pg?.end();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** Where most tests' manual clock starts. */
export const TEST_START = Date.parse("2026-06-01T12:00:00Z");

/**
 * A fresh app for each test of the file, on a manual clock at TEST_START, closed after the test;
 * `ready` receives both (and may seed the app) before the test runs.
 */
export function testAppEach(ready: (t: TestApp, clock: ManualClock) => unknown) {
  let app: TestApp | undefined;
  beforeEach(async () => {
    const clock = new ManualClock(TEST_START);
    app = await createTestApp({ clock });
    await ready(app, clock);
  });
  afterEach(() => app?.close());
}
