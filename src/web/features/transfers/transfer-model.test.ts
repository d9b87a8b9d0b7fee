import { describe, expect, it } from "vitest";
import {
  kbpsOf,
  matchPicked,
  type PickedFile,
  planUpload,
  transferPercent,
  transferRate,
} from "./transfer-model";

const picked = (relativePath: string, size = 10, lastModified = 1000): PickedFile => ({
  file: { size, lastModified, name: relativePath.split("/").at(-1) } as File,
  relativePath,
});
const fp = (relativePath: string, size = 10, lastModified = 1000) => ({
  relativePath,
  size,
  lastModified,
});

describe("planUpload", () => {
  it("maps each top-level name to one path item and each file to its workspace path", () => {
    const plan = planUpload("Deliveries", [
      picked("Shots/a/1.exr", 5),
      picked("Shots/2.exr", 7),
      picked("notes.txt", 1),
    ]);
    expect(plan.paths).toEqual([
      { source: "Shots", destination: "Deliveries/Shots" },
      { source: "notes.txt", destination: "Deliveries/notes.txt" },
    ]);
    expect(plan.files.map((f) => f.destination)).toEqual([
      "Deliveries/Shots/a/1.exr",
      "Deliveries/Shots/2.exr",
      "Deliveries/notes.txt",
    ]);
    expect(plan.totalBytes).toBe(13);
  });

  it("puts files at the workspace root without a leading slash", () => {
    expect(planUpload("", [picked("a.txt")]).paths).toEqual([
      { source: "a.txt", destination: "a.txt" },
    ]);
  });
});

describe("matchPicked", () => {
  const files = [
    { fingerprint: fp("Shots/1.exr"), status: "queued" as const },
    { fingerprint: fp("Shots/2.exr", 20), status: "done" as const },
    { fingerprint: fp("Shots/3.exr", 30, 5), status: "paused" as const },
  ];

  it("matches by path, size and modification time, skipping finished files", () => {
    const found = matchPicked(files, [
      picked("Shots/1.exr"),
      picked("Shots/2.exr", 20),
      picked("Shots/3.exr", 30, 5),
    ]);
    expect([...found.keys()]).toEqual([0, 2]);
  });

  it("refuses a file of the same name whose size or time changed", () => {
    const found = matchPicked(files, [picked("Shots/1.exr", 11), picked("Shots/3.exr", 30, 6)]);
    expect(found.size).toBe(0);
  });

  it("matches a folder picked from elsewhere by the tail of its paths", () => {
    const found = matchPicked(
      files,
      [picked("Shots/1.exr").file].map((file) => ({
        file,
        relativePath: "Work/Shots/1.exr",
      })),
    );
    expect([...found.keys()]).toEqual([0]);
  });
});

describe("transfer rate and ETA", () => {
  const base = { bytesDone: 0, bytesTotal: 1_000_000, avgRateKbps: null, rateKbps: null };

  it("converts kilobits a second both ways", () => {
    expect(kbpsOf(125_000)).toBe(1000);
  });

  it("uses the engine's rate while running and estimates the time left", () => {
    expect(transferRate({ ...base, status: "running", bytesDone: 500_000, rateKbps: 800 })).toEqual(
      { bytesPerSecond: 100_000, etaSeconds: 5 },
    );
  });

  it("uses the average once finished, with no time left", () => {
    expect(transferRate({ ...base, status: "completed", avgRateKbps: 8, rateKbps: 800 })).toEqual({
      bytesPerSecond: 1000,
      etaSeconds: null,
    });
  });

  it("has no rate before the engine reported one", () => {
    expect(transferRate({ ...base, status: "running" })).toEqual({
      bytesPerSecond: null,
      etaSeconds: null,
    });
  });

  it("percent is of bytes, 100 when completed, null without a total", () => {
    expect(transferPercent({ status: "running", bytesDone: 250, bytesTotal: 1000 })).toBe(25);
    expect(transferPercent({ status: "completed", bytesDone: 0, bytesTotal: null })).toBe(100);
    expect(transferPercent({ status: "running", bytesDone: 5, bytesTotal: null })).toBeNull();
  });
});
