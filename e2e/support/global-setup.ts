import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * Starts the real service (built console included) on a temporary data dir, the way a person
 * runs it, and hands the printed sign-in URL to the tests through the environment.
 */
export default async function globalSetup() {
  if (!fs.existsSync(path.join(root, "dist/index.html"))) {
    throw new Error("Build the console first (npm run test:e2e does): dist/index.html is missing");
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-e2e-"));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    STATIC_DIR: path.join(root, "dist"),
    DEMO_CONTENT: "0",
    LOG_LEVEL: "warn",
    WEBHOOKS_ALLOW_PRIVATE: "1",
    // A short rate window keeps the 429 journey quick: Retry-After is at most a few seconds.
    RATE_LIMIT_WINDOW_SECONDS: "4",
  };
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stderr: string[] = [];
  let stopping = false;
  child.stderr!.on("data", (d) => stderr.push(String(d)));
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
  // From here on the service's warnings and a crash show in the test output, not nowhere.
  child.stderr!.on("data", (d) => process.stderr.write(`[service] ${d}`));
  child.once("exit", (code, signal) => {
    if (!stopping) process.stderr.write(`[service] exited unexpectedly: ${code ?? signal}\n`);
  });
  const url = new URL(signInUrl);
  const origin = url.origin;
  const adminKey = url.hash.replace("#key=", "");
  const info = await fetch(`${origin}/v1/auth/key`, {
    headers: { Authorization: `Bearer ${adminKey}` },
  });
  const workspaceId = ((await info.json()) as { workspace: { id: string } }).workspace.id;

  process.env.E2E_SERVICE = JSON.stringify({ origin, signInUrl, adminKey, workspaceId, dataDir });
  return async () => {
    stopping = true;
    await stop(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

function stop(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
