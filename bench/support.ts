/**
 * What the browser benchmarks share with the journeys: the real service on a temporary data dir,
 * started the way a person starts it, and a headless Chromium (the system one where there is one).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";
import {
  chromiumArgs,
  chromiumExecutable,
  root,
  type ServiceProcess,
  startServiceProcess,
} from "../e2e/support/service-process";

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
