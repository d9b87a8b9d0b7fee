import { defineConfig, devices } from "@playwright/test";
import { chromiumArgs, chromiumExecutable } from "./support/service-process";

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  outputDir: "../test-results",
  fullyParallel: true,
  // Two workers, each with a service of its own (fixtures.ts): one worker left a core idle
  // (the journeys wait on the service and the browser in turn). An earlier trial with one
  // shared service gained nothing: journeys queued behind each other's bulk jobs.
  workers: 2,
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
