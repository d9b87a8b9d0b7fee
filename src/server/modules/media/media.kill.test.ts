import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { probe } from "@/server/media/probe";
import { makeClip } from "@/server/testing/media";
import { serviceProcesses } from "@/server/testing/service-process";

const service = serviceProcesses("consign-media-kill-");
afterAll(() => service.close());

const row = (sql: string) => {
  const db = service.open(true);
  try {
    return db.prepare(sql).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
};

it("kill -9 in the middle of a transcode, then a restart: the proxy renders again and ends once", async () => {
  const first = await service.start();
  const { key, w } = await service.signedIn(first);
  // Long enough at 720p that the kill comes while ffmpeg encodes.
  const clip = await makeClip({ seconds: 20, size: "1280x720", audio: false });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "consign-clip-")), "clip.mp4");
  fs.writeFileSync(file, clip);
  await service.seed("--write", "clip.mp4", "--from", file);
  const queued = await service.api(first.origin, key, "POST", w("/files/proxies"), {
    paths: ["clip.mp4"],
  });
  // The waveform too, until the probe finds the clip has no sound.
  expect(queued.json).toEqual({ queued: 3 });
  const proxy = "SELECT * FROM renditions WHERE kind = 'proxy720'";
  while (!row(proxy).some((r) => r.status === "rendering" && Number(r.progress) > 0))
    await new Promise((r) => setTimeout(r, 20));
  await service.kill(first.child);
  expect(row(proxy)[0]).toMatchObject({ status: "rendering" });

  service.expireLeasesOf(first.child);
  const second = await service.start();
  let entry: { status: string } | undefined;
  for (let i = 0; i < 1200 && entry?.status !== "ready" && entry?.status !== "failed"; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const s = await service.api(second.origin, key, "GET", w("/files/proxies?path=clip.mp4"));
    entry = s.json.proxies.find((p: { kind: string }) => p.kind === "proxy720");
  }
  expect(entry).toMatchObject({ status: "ready", width: 1280, height: 720, error: null });
  const rows = row(proxy);
  expect(rows).toHaveLength(1);
  const jobs = row("SELECT status, attempts FROM jobs WHERE kind = 'media.transcode'");
  expect(jobs).toEqual([{ status: "done", attempts: 2 }]);
  const made = path.join(service.dataDir, "cache", "renditions", String(rows[0]!.id).slice(0, 2));
  // One whole file: the killed run's partial output is gone.
  expect(fs.readdirSync(made).filter((f) => f.startsWith(String(rows[0]!.id)))).toEqual([
    `${rows[0]!.id}.mp4`,
  ]);
  const read = await probe(path.join(made, `${rows[0]!.id}.mp4`));
  expect(Number(read?.format?.duration)).toBeCloseTo(20, 0);
}, 180_000);
