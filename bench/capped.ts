/**
 * Service processes held to the same CPU share, for the scale-out benchmark: each in a cgroup of
 * its own with a CPU quota where the machine lets us write one (cgroup v1 `cpu` or v2), else
 * pinned to a core of its own with taskset. `capMethod` says which, for the figures.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { root } from "../e2e/support/service-process";

const V1 = "/sys/fs/cgroup/cpu";
const V2 = "/sys/fs/cgroup";

function writable(dir: string) {
  try {
    const probe = path.join(dir, `consign-probe-${process.pid}`);
    fs.mkdirSync(probe);
    fs.rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}

export const capMethod: "cgroup v1" | "cgroup v2" | "taskset" = fs.existsSync(
  path.join(V1, "cpu.cfs_quota_us"),
)
  ? writable(V1)
    ? "cgroup v1"
    : "taskset"
  : fs.existsSync(path.join(V2, "cgroup.controllers")) && writable(V2)
    ? "cgroup v2"
    : "taskset";

/** Puts `pid` in a new group allowed `share` of one CPU; returns what removes the group. */
function cap(pid: number, share: number, slot: number): () => void {
  if (capMethod === "taskset") {
    execFileSync("taskset", ["-a", "-p", "-c", String(slot % 2), String(pid)], { stdio: "ignore" });
    return () => {};
  }
  const dir = path.join(
    capMethod === "cgroup v1" ? V1 : V2,
    `consign-bench-${process.pid}-${slot}`,
  );
  fs.mkdirSync(dir, { recursive: true });
  const period = 100_000;
  if (capMethod === "cgroup v1") {
    fs.writeFileSync(path.join(dir, "cpu.cfs_period_us"), String(period));
    fs.writeFileSync(path.join(dir, "cpu.cfs_quota_us"), String(Math.round(share * period)));
  } else {
    fs.writeFileSync(path.join(dir, "cpu.max"), `${Math.round(share * period)} ${period}`);
  }
  fs.writeFileSync(path.join(dir, "cgroup.procs"), String(pid));
  return () => {
    try {
      fs.rmdirSync(dir);
    } catch {}
  };
}

/** CPU seconds a process has used (user + system), from /proc. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime are fields 14 and 15 of stat; 12 and 13 after the command.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

export interface CappedService {
  child: ChildProcess;
  origin: string;
  cpu(): number;
  stop(): Promise<void>;
}

/** `node src/server/main.ts` on an existing data dir, capped; resolves once it listens. */
export async function startCapped(
  env: Record<string, string>,
  share: number,
  slot: number,
): Promise<CappedService> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: root,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const uncap = cap(child.pid!, share, slot);
  let out = "";
  const origin = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`service exited with ${code}: ${out}`)));
    child.stdout!.on("data", (d) => {
      out += String(d);
      const found = /running at (http:\/\/\S+)/.exec(out)?.[1];
      if (found) resolve(found);
    });
  });
  return {
    child,
    origin,
    cpu: () => cpuSeconds(child.pid!),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => {
          uncap();
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

/** CPU seconds of a PostgreSQL server and every process it started (backends, writers). */
export function postgresCpuSeconds(postmasterPid: number): number {
  let total = cpuSeconds(postmasterPid);
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.split(") ")[1]!.split(" ")[1]);
      if (ppid === postmasterPid) total += cpuSeconds(Number(entry));
    } catch {}
  }
  return total;
}
