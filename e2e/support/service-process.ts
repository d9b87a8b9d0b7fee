/**
 * What the browser journeys and the benchmarks share: the real service, started the way a person
 * starts it, on a temporary data dir, and the Chromium to drive it with.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");

/**
 * Browsers cannot be downloaded on our machines: the system Chromium where there is one, else
 * undefined, which lets Playwright use its own browser (developer laptops). Debian's headless
 * shell first: the same Blink without the full browser around it, it spent a quarter less CPU
 * on the foundation journeys (55 s against 75 s), and the journeys are CPU-bound on 2 cores.
 */
export const chromiumExecutable = [
  process.env.CHROMIUM_PATH,
  "/usr/bin/chromium-headless-shell",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
].find((p): p is string => !!p && fs.existsSync(p));

export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface ServiceProcess {
  origin: string;
  /** The URL the service printed on first start: opens a signed-in console. */
  signInUrl: string;
  adminKey: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts `src/server/main.ts` with the built console on a free port and a new data dir, and
 * resolves once it has printed its sign-in URL. From then on its stderr (warnings, a crash) is
 * passed through with a `[service]` prefix.
 */
/** The built console; CONSIGN_DIST lets parallel work trees build and test side by side. */
const dist = process.env.CONSIGN_DIST ?? path.join(root, "dist");

export async function startServiceProcess(
  env: Record<string, string> = {},
): Promise<ServiceProcess> {
  if (!fs.existsSync(path.join(dist, "index.html"))) {
    throw new Error(`Build the console first (npm run build): ${dist}/index.html is missing`);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-service-"));
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      STATIC_DIR: dist,
      DEMO_CONTENT: "0",
      // The free-space floor has its own tests (src/server/node/disk-full.test.ts); a journey
      // must not depend on how full the machine's disk is.
      MIN_FREE_DISK_MB: "0",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stopping = false;
  const stderr: string[] = [];
  const collect = (d: Buffer) => stderr.push(String(d));
  child.stderr!.on("data", collect);
  const signInUrl = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(
      () => reject(new Error(`service did not start:\n${out}\n${stderr.join("")}`)),
      60_000,
    );
    child.stdout!.on("data", (d) => {
      out += String(d);
      const m = /(http:\/\/\S+\/#key=svc_sk_\w+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once("exit", (code) =>
      reject(new Error(`service exited with ${code}:\n${out}\n${stderr.join("")}`)),
    );
  });
  child.stderr!.off("data", collect);
  child.stderr!.on("data", (d) => process.stderr.write(`[service] ${d}`));
  child.once("exit", (code, signal) => {
    if (!stopping) process.stderr.write(`[service] exited unexpectedly: ${code ?? signal}\n`);
  });
  const url = new URL(signInUrl);
  return {
    origin: url.origin,
    signInUrl,
    adminKey: url.hash.replace("#key=", ""),
    dataDir,
    async stop() {
      stopping = true;
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
