/**
 * What the browser benchmarks share with the journeys: the real service on a temporary data dir,
 * started the way a person starts it, and a headless Chromium (the system one where there is one).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { type Browser, chromium } from "playwright-core";
import {
  chromiumArgs,
  chromiumExecutable,
  root,
  type ServiceProcess,
  startServiceProcess,
} from "../e2e/support/service-process";
import { loadConfig } from "../src/server/env";
import { startService as startServer } from "../src/server/server";

export { root };

/** Builds the console and the public pages when dist/ is missing. */
export function ensureBuilt() {
  if (!fs.existsSync(path.join(root, "dist/index.html"))) {
    execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  }
}

/** The service without a rate limit in the way: the benchmarks are the only client. */
export function startService(env: Record<string, string> = {}): Promise<ServiceProcess> {
  return startServiceProcess({ RATE_LIMIT_PER_MINUTE: "1000000", ...env });
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumExecutable,
    headless: true,
    args: chromiumArgs,
  });
}

/**
 * The service in this process, for benchmarks that seed or record through its deps as the
 * workers do: a fresh temporary data dir, no demo content, no rate limit in the way.
 */
export async function startInProcess(name: string, env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `consign-bench-${name}-`));
  const service = await startServer(
    loadConfig({
      DATA_DIR: dataDir,
      PORT: "0",
      LOG_LEVEL: "warn",
      DEMO_CONTENT: "0",
      RATE_LIMIT_PER_MINUTE: "1000000",
      ...env,
    }),
  );
  return { service, dataDir };
}

/**
 * A thread that only burns CPU (no I/O, no database) for `ms`, at nice 10 like the service's
 * background work: the reference a benchmark sets a background job's cost beside. Resolves when
 * it stops.
 */
export function spinCpu(ms: number): Promise<void> {
  const spinner = new Worker(
    `const fs = require("node:fs"), os = require("node:os");
     try { os.setPriority(Number(fs.readlinkSync("/proc/thread-self").split("/").pop()), 10); } catch {}
     const end = Date.now() + ${Math.round(ms)};
     let x = 0; while (Date.now() < end) x += Math.sqrt(x + 1);`,
    { eval: true },
  );
  return new Promise((resolve) => spinner.once("exit", () => resolve()));
}
