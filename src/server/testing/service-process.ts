import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";

const root = path.resolve(import.meta.dirname, "../../..");

/**
 * The real service as processes on one temporary data dir, for tests that kill one with
 * SIGKILL and start the next: `start()` resolves once it listens (with the admin key on the
 * first start), `kill()` sends SIGKILL, `close()` kills what is left and removes the data dir.
 */
export function serviceProcesses(prefix: string, settings: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    DEMO_CONTENT: "0",
    ...settings,
  };
  const children: ChildProcess[] = [];

  /** One more process on the data dir; several may run at once, e.g. with their own `ROLES`. */
  async function start(
    own: Record<string, string> = {},
  ): Promise<{ child: ChildProcess; origin: string; key?: string }> {
    // The first start prints the admin key, which may come after the address.
    const firstStart = !fs.existsSync(path.join(dataDir, "consign.db"));
    const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
      cwd: root,
      env: { ...env, PORT: "0", HOST: "127.0.0.1", STATIC_DIR: path.join(dataDir, "none"), ...own },
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    let out = "";
    return new Promise((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`service exited with ${code}: ${out}`)));
      child.stdout!.on("data", (d) => {
        out += String(d);
        const origin = /running at (http:\/\/\S+)/.exec(out)?.[1];
        const key = /#key=(svc_sk_\w+)/.exec(out)?.[1];
        if (origin && (key || !firstStart)) resolve({ child, origin, key });
      });
    });
  }

  /** Calls a started service with `key`; the answer's JSON is read whatever its status. */
  async function api(origin: string, key: string, method: string, url: string, body?: unknown) {
    const send = () =>
      fetch(`${origin}${url}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // A service busy longer than its keep-alive timeout (a job step on a loaded machine) closes
    // the idle connection the next request is already on, which resets it. A browser sends an
    // idempotent request again then; so does this.
    const res = await send().catch((e: Error & { cause?: { code?: string } }) => {
      if (method !== "GET" || e.cause?.code !== "ECONNRESET") throw e;
      return send();
    });
    // biome-ignore lint/suspicious/noExplicitAny: reads whatever the service answered
    return { status: res.status, json: (await res.json()) as any };
  }

  /** Calls with the first start's admin key, and `w()` for its workspace's paths. */
  async function signedIn(first: { origin: string; key?: string }) {
    const key = first.key!;
    const call = (origin: string, method: string, url: string, body?: unknown) =>
      api(origin, key, method, url, body);
    const me = await call(first.origin, "GET", "/v1/auth/key");
    const w = (suffix: string) => `/v1/workspaces/${me.json.workspace.id}${suffix}`;
    return { key, call, w };
  }

  const kill = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGKILL");
    });

  /** The database, opened beside the service (WAL lets both in). */
  const open = (readonly = false) => new Database(path.join(dataDir, "consign.db"), { readonly });

  /**
   * Runs the seed CLI beside the running service, as a person would seed it. Asynchronously: a
   * test blocked on a child for seconds cannot see the service close its idle kept-alive
   * connection, and its next request on that connection is reset.
   */
  const seed = (...args: string[]) =>
    promisify(execFile)(process.execPath, ["--import", "tsx", "src/server/cli/seed.ts", ...args], {
      cwd: root,
      env,
    });

  /** The started process whose worker holds a running job's lease (one of several running). */
  function jobHolder() {
    const db = open(true);
    try {
      const owners = db
        .prepare("SELECT lease_owner FROM jobs WHERE status = 'running'")
        .pluck()
        .all() as string[];
      return children.find((c) => owners.some((o) => o.startsWith(`worker-${c.pid}-`)));
    } finally {
      db.close();
    }
  }

  /**
   * A killed process's leases (its jobs' and its webhook deliveries') last up to a minute; this
   * lets them run out at once, and only them: the survivors' stay theirs. Returns how many.
   */
  function expireLeasesOf(killed: ChildProcess) {
    const db = open();
    try {
      const jobs = db
        .prepare(
          "UPDATE jobs SET lease_expires_at = 0 WHERE status = 'running' AND lease_owner LIKE ?",
        )
        .run(`worker-${killed.pid}-%`).changes;
      const deliveries = db
        .prepare("UPDATE webhook_deliveries SET lease_expires_at = 0 WHERE lease_owner LIKE ?")
        .run(`webhooks-${killed.pid}-%`).changes;
      return { jobs, deliveries };
    } finally {
      db.close();
    }
  }

  function close() {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  return {
    root,
    dataDir,
    env,
    start,
    api,
    signedIn,
    seed,
    kill,
    open,
    jobHolder,
    expireLeasesOf,
    close,
  };
}
