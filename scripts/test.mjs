// `npm test`: every gate in order (types, lint and format, unit tests, browser journeys), then one
// closing line that counts the tests of both runners: "tests: N passed, N failed".
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const out = fs.mkdtempSync(path.join(os.tmpdir(), "consign-test-"));
const vitestJson = path.join(out, "vitest.json");
const playwrightJson = path.join(out, "playwright.json");
const bin = (name) => path.join("node_modules", ".bin", name);

const steps = [
  ["typecheck", bin("tsc"), ["--noEmit"]],
  ["lint", bin("biome"), ["check", "."]],
  [
    "unit",
    bin("vitest"),
    ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`],
  ],
  ["build", bin("vite"), ["build", "--logLevel", "warn"]],
  ["build (public pages)", bin("vite"), ["build", "--mode", "public", "--logLevel", "warn"]],
  [
    "e2e",
    bin("playwright"),
    ["test", "-c", "e2e", "--reporter=list,json"],
    { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson },
  ],
];

let failedStep = null;
for (const [name, cmd, args, env] of steps) {
  process.stdout.write(`\n▶ ${name}\n`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  process.stdout.write(
    `◀ ${name}: ${r.status === 0 ? "ok" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  if (r.status !== 0) {
    failedStep = name;
    break;
  }
}

let passed = 0;
let failed = 0;
if (fs.existsSync(vitestJson)) {
  const v = JSON.parse(fs.readFileSync(vitestJson, "utf8"));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
}
if (fs.existsSync(playwrightJson)) {
  const p = JSON.parse(fs.readFileSync(playwrightJson, "utf8"));
  passed += p.stats.expected + p.stats.flaky;
  failed += p.stats.unexpected;
}
fs.rmSync(out, { recursive: true, force: true });
if (failedStep && failed === 0) failed = 1; // a gate without tests (types, lint, build) failed
if (failedStep) process.stdout.write(`\nThe ${failedStep} step failed.\n`);
process.stdout.write(`tests: ${passed} passed, ${failed} failed\n`);
process.exit(failedStep ? 1 : 0);
