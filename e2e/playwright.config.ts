import { defineConfig, devices } from "@playwright/test";
import { chromiumArgs, chromiumExecutable } from "./support/service-process";

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  outputDir: "../test-results",
  globalSetup: "./support/global-setup.ts",
  fullyParallel: true,
  // One worker: the journeys share one service, and on these 2-core machines a second worker
  // made no run faster (12.2 min against 11.8) while journeys queued behind each other's bulk
  // jobs and timed requests jittered.
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    ...devices["Desktop Chrome"],
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromiumExecutable,
      args: chromiumArgs,
    },
  },
});
