import { execFile } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import nodePath from "node:path";
import { promisify } from "node:util";
import { test as base, expect, type Page } from "@playwright/test";
import sharp from "sharp";
import type { Scope } from "@/contract/common";
import { startServiceProcess } from "./support/service-process";

const root = nodePath.resolve(import.meta.dirname, "..");
const run = promisify(execFile);

export interface Service {
  /** http://127.0.0.1:<port>: the console and the API's host */
  origin: string;
  /** origin + /v1 */
  apiUrl: string;
  /** The URL the service printed on first start: opens a signed-in console. */
  signInUrl: string;
  adminKey: string;
  workspaceId: string;
  /** Creates a key through the keys CLI, as an admin would. */
  createKey(scopes: Scope[] | "all"): Promise<string>;
  /** The same, with the key's id (for revoking it). */
  createKeyRecord(scopes: Scope[] | "all"): Promise<{ id: string; key: string }>;
  revokeKey(id: string): Promise<void>;
  /**
   * Adds `entries` entries to `folder` as the seed CLI does (the API carries no file content):
   * files named `plate_0000000_v001.exr`, …, with one folder `dir_…` in fifty.
   */
  seed(folder: string, entries: number): Promise<void>;
  /** Writes `text` to the file at `path` as the seed CLI does; other content keeps a version. */
  writeFile(path: string, text: string): Promise<void>;
  /** Writes a real PNG (width × height, one colour) to `path` as the seed CLI does. */
  writeImage(path: string, width: number, height: number): Promise<void>;
  /** Writes `bytes` (media a test made) to `path` as the seed CLI does; as it is, a version. */
  writeBytes(path: string, bytes: Buffer): Promise<void>;
  /** Calls the API with a key (the admin key by default); throws on an error status. */
  api<T = unknown>(
    method: string,
    pathInWorkspace: string,
    body?: unknown,
    key?: string,
  ): Promise<T>;
}

/**
 * The seed CLI's work, run in this worker rather than in a process per call: each process spent
 * about 2 s of CPU loading the service's modules, over a hundred times a run on 2 cores. Loaded
 * on first use, so journeys that seed nothing do not load the service.
 */
const seedFiles = () => import("../src/server/cli/seed-files");

/**
 * Starts the real service (built console included) on a temporary data dir, the way a person
 * runs it, with its first workspace's id.
 */
async function startService() {
  const started = await startServiceProcess({
    WEBHOOKS_ALLOW_PRIVATE: "1",
    // A short rate window keeps a throttled console's waits short: Retry-After is a few seconds.
    RATE_LIMIT_WINDOW_SECONDS: "4",
  });
  const info = await fetch(`${started.origin}/v1/auth/key`, {
    headers: { Authorization: `Bearer ${started.adminKey}` },
  });
  const workspaceId = ((await info.json()) as { workspace: { id: string } }).workspace.id;
  return { ...started, workspaceId };
}

function service(s: Awaited<ReturnType<typeof startService>>): Service {
  const apiUrl = `${s.origin}/v1`;
  const env = { ...process.env, DATA_DIR: s.dataDir, LOG_LEVEL: "silent" };
  /** Runs one of the service's CLIs against the test service's data dir, as an admin would. */
  const cli = async (name: string, args: string[]) =>
    (
      await run(process.execPath, ["--import", "tsx", `src/server/cli/${name}.ts`, ...args], {
        cwd: root,
        env,
      })
    ).stdout;
  return {
    ...s,
    apiUrl,
    async createKey(scopes) {
      return (await this.createKeyRecord(scopes)).key;
    },
    async createKeyRecord(scopes) {
      const list = scopes === "all" ? "all" : scopes.join(",");
      const stdout = await cli("keys", ["create", "--scopes", list, "--json"]);
      return JSON.parse(stdout) as { id: string; key: string };
    },
    async revokeKey(id) {
      await cli("keys", ["revoke", id]);
    },
    async seed(folder, entries) {
      await (await seedFiles()).seedFolder(folder, entries, { env });
    },
    async writeFile(path, text) {
      await this.writeBytes(path, Buffer.from(text));
    },
    async writeImage(path, width, height) {
      const png = await sharp({
        create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } },
      })
        .png()
        .toBuffer();
      await this.writeBytes(path, png);
    },
    async writeBytes(path, bytes) {
      await (await seedFiles()).writeSeedFile(path, bytes, { env });
    },
    async api(method, pathInWorkspace, body, key = s.adminKey) {
      const res = await fetch(`${apiUrl}/workspaces/${s.workspaceId}${pathInWorkspace}`, {
        method,
        headers: {
          Authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${pathInWorkspace} -> ${res.status} ${text}`);
      return (text ? JSON.parse(text) : null) as never;
    },
  };
}

/**
 * One service per worker: journeys in one worker share it, and two workers' journeys never wait
 * behind each other's jobs or read each other's counts.
 */
// biome-ignore lint/complexity/noBannedTypes: Playwright's signature for no test-scoped fixtures
export const test = base.extend<{}, { service: Service }>({
  service: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
    async ({}, use) => {
      const started = await startService();
      try {
        await use(service(started));
      } finally {
        await started.stop();
      }
    },
    { scope: "worker", timeout: 90_000 },
  ],
  // The service listens on a port chosen at start, so relative page.goto() needs it here.
  baseURL: async ({ service }, use) => {
    await use(service.origin);
  },
});
export { expect };

const axeSource = fs.readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

/**
 * Waits for the page's running animations (a dialog fading in, a theme change) to end. One that
 * is cancelled meanwhile (its `finished` rejects with AbortError) has ended too; one that repeats
 * for ever is not waited for.
 */
export async function settleAnimations(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        // A spinner or a skeleton's pulse never ends.
        .filter((a) => a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Runs axe in the page (through the debugger protocol, so the page's CSP does not block it),
 * once animations have ended: mid-fade, colours are blends and contrast is misread.
 */
export async function expectNoAxeViolations(page: Page) {
  await settleAnimations(page);
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is injected above
    const result = await (window as any).axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map(
      (v: { id: string; help: string; nodes: { target: string[] }[] }) =>
        `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
    );
  });
  expect(violations, `axe found violations on ${page.url()}`).toEqual([]);
}

/** axe in light and dark, at a phone's width and a desktop's; the page is left light. */
export async function expectNoAxeViolationsInThemes(page: Page, widths = [390, 1440]) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoAxeViolations(page);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** The console signed in through the printed sign-in link, on Files. */
export async function signIn(page: Page, service: Service) {
  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
}
