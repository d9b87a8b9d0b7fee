import { execFile } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const exec = promisify(execFile);

/** The newest PostgreSQL 15+ server binaries on the machine (Debian's postgresql package). */
export function postgresBinDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .map(Number)
        .filter((v) => v >= 15 && fs.existsSync(path.join(root, String(v), "bin", "postgres")))
        .sort((a, b) => b - a)
    : [];
  if (versions.length === 0) {
    throw new Error(
      "PostgreSQL 15 or later is not installed (/usr/lib/postgresql/<version>/bin): run `npm run setup`",
    );
  }
  return path.join(root, String(versions[0]), "bin");
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface PostgresServer {
  /** The superuser's URL on the `postgres` database. */
  url: string;
  /** The server's main process (benchmarks count its CPU). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL on loopback in a temporary folder, for tests and benchmarks: initdb, then
 * pg_ctl. It runs as the `postgres` system user when we are root (the server refuses root), and
 * without fsync: a test's data need not survive a power cut, and it is several times faster.
 */
export async function startPostgres(prefix = "consign-pg-"): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  // The server's user must reach its folder, and root's temp folder may be closed to others.
  const dir = fs.mkdtempSync(path.join(asRoot ? "/var/tmp" : os.tmpdir(), prefix));
  if (asRoot) {
    const uid = Number((await exec("id", ["-u", "postgres"])).stdout.trim());
    const gid = Number((await exec("id", ["-g", "postgres"])).stdout.trim());
    fs.chownSync(dir, uid, gid);
  }
  // Asynchronously: initdb takes seconds, which a test runner's other work can use.
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? exec("runuser", ["-u", "postgres", "--", path.join(bin, cmd), ...args])
      : exec(path.join(bin, cmd), args);
  const data = path.join(dir, "data");
  await run("initdb", ["-D", data, "-U", "consign", "--auth=trust", "-E", "UTF8", "--locale=C"]);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-c unix_socket_directories=${dir}`,
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=300",
  ].join(" ");
  await run("pg_ctl", [
    "start",
    "-w",
    "-D",
    data,
    "-l",
    path.join(dir, "server.log"),
    "-o",
    options,
  ]);
  const url = `postgres://consign@127.0.0.1:${port}/postgres`;
  const pid = Number(fs.readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]);
  return {
    url,
    pid,
    async stop() {
      try {
        await run("pg_ctl", ["stop", "-D", data, "-m", "immediate"]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A new empty database on the server; its URL. */
/** `locale`: the ICU locale of the database's default collation (the server's is C). */
export async function createDatabase(
  serverUrl: string,
  name: string,
  opts: { locale?: string } = {},
): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const locale = opts.locale
      ? ` LOCALE_PROVIDER icu ICU_LOCALE '${opts.locale.replace(/[^A-Za-z0-9-]/g, "")}'`
      : "";
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE template0${locale}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(serverUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
