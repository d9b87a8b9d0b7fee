/**
 * What the browser benchmarks share: the real service on a temporary data dir, started the way
 * a person starts it, and a headless Chromium (the system one where there is one).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";

export const root = path.resolve(import.meta.dirname, "..");

export interface RunningService {
  origin: string;
  signInUrl: string;
  adminKey: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Builds the console when dist/ is missing or older than the sources it came from. */
export function ensureBuilt() {
  if (!fs.existsSync(path.join(root, "dist/index.html"))) {
    execFileSync("npx", ["vite", "build"], { cwd: root, stdio: "inherit" });
  }
}

export async function startService(env: Record<string, string> = {}): Promise<RunningService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-bench-"));
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      STATIC_DIR: path.join(root, "dist"),
      DEMO_CONTENT: "0",
      LOG_LEVEL: "warn",
      RATE_LIMIT_PER_MINUTE: "1000000",
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const signInUrl = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += String(d);
      const m = /(http:\/\/\S+\/#key=svc_sk_\w+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`service exited with ${code}: ${out}`)));
  });
  const url = new URL(signInUrl);
  return {
    origin: url.origin,
    signInUrl,
    adminKey: url.hash.replace("#key=", ""),
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function launchChromium(): Promise<Browser> {
  const executablePath = [
    process.env.CHROMIUM_PATH,
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
  ].find((p): p is string => !!p && fs.existsSync(p));
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
