import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test as base, expect } from "@playwright/test";
import { loadConfig } from "@/server/env";
import { type RunningService, startService } from "@/server/server";
import { root } from "./support/service-process";

/*
 * A service of this spec's own, started in-process with its job runner held (the way the
 * service's own tests hold it): the jobs created here stay queued, so the console sees more
 * active jobs than one page of the list holds for as long as the test looks.
 */
const test = base.extend<{
  held: { service: RunningService; adminKey: string; signInUrl: string };
}>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
  held: async ({}, use) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-held-jobs-"));
    const service = await startService(
      loadConfig({
        DATA_DIR: dataDir,
        PORT: "0",
        LOG_LEVEL: "silent",
        DEMO_CONTENT: "0",
        STATIC_DIR: process.env.CONSIGN_DIST ?? path.join(root, "dist"),
      }),
      { workers: false },
    );
    try {
      if (!service.boot.created) throw new Error("expected a fresh data dir");
      const { adminKey } = service.boot;
      await use({ service, adminKey, signInUrl: `${service.url}/#key=${adminKey}` });
    } finally {
      await service.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
});

const ACTIVE_JOBS = 60;

test("an idle tab polls at most a few times a second, though more jobs are active than a list page holds and one of them was started in it", async ({
  page,
  held,
}) => {
  const { service, adminKey, signInUrl } = held;
  const w = `${service.url}/v1/workspaces/${service.boot.workspace.id}`;
  const call = async (p: string, body: unknown) => {
    const res = await fetch(`${w}${p}`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${adminKey}`,
        "Content-Type": "application/json",
      },
      body: JSON.stringify(body),
    });
    expect(res.ok, `${p}: ${res.status} ${await res.text()}`).toBe(true);
  };
  await call("/files/folder", { path: "Held/Copies" });
  await call("/files/folder", { path: "Held/mine" });

  // This tab copies a folder: the job stays queued, and the tab waits to report its end.
  await page.goto(signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.goto(`${service.url}/files?path=Held`);
  await page.getByRole("row", { name: /mine/ }).click({ button: "right" });
  await page.getByRole("menuitem", { name: "Copy to…" }).click();
  const dialog = page.getByRole("dialog", { name: "Copy “mine” to…" });
  await dialog
    .getByRole("list", { name: "Folders in Held" })
    .getByRole("button", { name: "Copies" })
    .focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toContainText("No folders inside.");
  await dialog.getByRole("button", { name: "Copy here" }).click();
  await expect(page.getByRole("link", { name: "1 job running" })).toBeVisible();

  // Then scripts start more copies than the active list's first page holds (newest first).
  for (let i = 0; i < ACTIVE_JOBS; i++) {
    const folder = `Held/job ${String(i).padStart(2, "0")}`;
    await call("/files/folder", { path: folder });
    await call("/files/operations", { kind: "copy", paths: [folder], destination: "Held/Copies" });
  }
  // The badge says a page's worth and more, rather than a page's worth.
  await expect(page.getByRole("link", { name: "50+ jobs running" })).toBeVisible();

  const requests: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname.startsWith("/v1/")) requests.push(r.url());
  });
  // Ten seconds of an idle tab: polls are what the test measures, so it waits them out.
  await page.waitForTimeout(10_000);
  expect(
    requests.length,
    `${requests.length} requests in 10 s:\n${requests.slice(0, 20).join("\n")}`,
  ).toBeLessThanOrEqual(30);
});
