/**
 * npm run bench:media (proxies): a 60 s 1080p clip made with ffmpeg (testsrc2 and a tone), then
 * in one run and side by side: our 720p proxy render (the job's own function: nice, progress)
 * against plain ffmpeg with the same arguments; the waveform and the contact sheet per minute
 * of media; and the files list's p99 while the service transcodes, beside the CPU-only
 * reference line bench:jobs prints. BENCH_MEDIA_SECONDS makes the clip shorter for a quick run.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { renderContactSheet } from "../src/server/media/contact-sheet";
import { proxy720Args, renderProxy720 } from "../src/server/media/proxy720";
import { renderWaveform } from "../src/server/media/waveform";
import { seedEntries } from "../src/server/modules/files/bulk-seed";
import { load } from "./load";
import { figureLine, formatMs, percentile } from "./stats";
import { spinCpu, startInProcess } from "./support";

const run = promisify(execFile);
const SECONDS = Number(process.env.BENCH_MEDIA_SECONDS ?? 60);
const line = figureLine(56);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-bench-media-"));
const clip = path.join(dir, "clip.mp4");

/** CPU time (user + system, ms) of this process's children that have ended: /proc/self/stat. */
function childrenCpuMs() {
  const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  // cutime and cstime, fields 16 and 17 of stat (here counted from field 3), in clock ticks.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/**
 * Wall time of `fn` in ms, and the CPU time its tools used: on a machine other work shares, the
 * wall time of a job at nice 10 says how busy the machine was; the CPU time says what it cost.
 */
async function timed(fn: () => Promise<unknown>) {
  const cpu = childrenCpuMs();
  const started = performance.now();
  await fn();
  return { wall: performance.now() - started, cpu: childrenCpuMs() - cpu };
}
const PAIRS = Number(process.env.BENCH_MEDIA_PAIRS ?? 2);

try {
  // A camera-like source: H.264 with a key frame every 2 s, stereo AAC.
  const made = await timed(() =>
    run("ffmpeg", [
      ...[
        "-v",
        "error",
        "-y",
        "-f",
        "lavfi",
        "-i",
        `testsrc2=size=1920x1080:rate=25:duration=${SECONDS}`,
      ],
      ...["-f", "lavfi", "-i", `sine=frequency=440:duration=${SECONDS}`, "-ac", "2"],
      ...[
        "-c:v",
        "libx264",
        "-preset",
        "ultrafast",
        "-crf",
        "20",
        "-g",
        "50",
        "-pix_fmt",
        "yuv420p",
      ],
      ...["-c:a", "aac", "-shortest", clip],
    ]),
  );
  console.log(
    `Made a ${SECONDS} s 1080p25 clip in ${formatMs(made.wall)}; ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
  const durationMs = SECONDS * 1000;

  // Plain ffmpeg and ours alternate, twice each; the faster of each pair counts.
  const plain: { wall: number; cpu: number }[] = [];
  const ours: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < PAIRS; i++) {
    const out = path.join(dir, `plain${i}.mp4`);
    plain.push(await timed(() => run("ffmpeg", proxy720Args(clip, out))));
    ours.push(
      await timed(() => renderProxy720(clip, path.join(dir, `ours${i}.mp4`), durationMs, () => {})),
    );
  }
  const plainMs = Math.min(...plain.map((r) => r.wall));
  const oursMs = Math.min(...ours.map((r) => r.wall));
  const plainCpu = Math.min(...plain.map((r) => r.cpu));
  const oursCpu = Math.min(...ours.map((r) => r.cpu));
  // A second or so each: one run is mostly the shared machine's noise, so the faster of a few.
  const best = async (fn: () => Promise<unknown>) => {
    const runs: { wall: number; cpu: number }[] = [];
    for (let i = 0; i < PAIRS + 1; i++) runs.push(await timed(fn));
    return {
      wall: Math.min(...runs.map((r) => r.wall)),
      cpu: Math.min(...runs.map((r) => r.cpu)),
    };
  };
  const wave = await best(() => renderWaveform(clip, path.join(dir, "wave.dat"), durationMs));
  const sheet = await best(() =>
    renderContactSheet(clip, path.join(dir, "sheet.jpg"), {
      durationMs,
      width: 1920,
      height: 1080,
    }),
  );
  const perMinute = (ms: number) => (ms * 60_000) / durationMs;

  // The service: the files list's p99 alone, while it transcodes, and while a CPU-only thread spins.
  const { service, dataDir } = await startInProcess("media");
  let transcodeMs = 0;
  let baseP99 = 0;
  let duringP99 = 0;
  let spinP99 = 0;
  let samples = [0, 0];
  try {
    if (!service.boot.created) throw new Error("expected a fresh data dir");
    const ws = service.boot.workspace.id;
    const headers = { Authorization: `Bearer ${service.boot.adminKey}` };
    const base = `${service.url}/v1/workspaces/${ws}`;
    await seedEntries(service.deps.files, ws, "Bench/listed", 100_000, {
      folderEvery: 0,
      pauseMs: 0,
    });
    await service.deps.files.writeFile(ws, "clip.mp4", fs.createReadStream(clip));
    const listUrls = (n: number, offset = 0) =>
      Array.from(
        { length: n },
        (_, i) =>
          `${base}/files?path=Bench%2Flisted&skip=${(((i + offset) * 7919) % 499) * 200}&count=200`,
      );
    await load(listUrls(1000), headers);
    baseP99 = percentile((await load(listUrls(3000, 5000), headers)).times, 99);
    const status = async () =>
      (await (await fetch(`${base}/files/proxies?path=clip.mp4`, { headers })).json()) as {
        proxies: { kind: string; status: string }[];
      };
    const started = performance.now();
    await fetch(`${base}/files/proxies`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify({ paths: ["clip.mp4"] }),
    });
    const during: number[] = [];
    const transcoding = async () =>
      (await status()).proxies.find((p) => p.kind === "proxy720")?.status !== "ready";
    for (let round = 0; await transcoding(); round++) {
      const batch = await load(listUrls(300, round * 300), headers);
      if (await transcoding()) during.push(...batch.times);
    }
    transcodeMs = performance.now() - started;
    duringP99 = percentile(during, 99);
    let spun = false;
    void spinCpu(transcodeMs).then(() => {
      spun = true;
    });
    const spinning: number[] = [];
    for (let round = 0; !spun; round++) {
      const batch = await load(listUrls(300, round * 300), headers);
      if (!spun) spinning.push(...batch.times);
    }
    spinP99 = percentile(spinning, 99);
    samples = [during.length, spinning.length];
  } finally {
    await service.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const speed = durationMs / oursMs;
  const ratio = plainMs / oursMs;
  console.log(`\nLoad average now ${os.loadavg()[0]!.toFixed(1)} (wall times share the machine)`);
  line("proxy720: plain ffmpeg, same arguments", formatMs(plainMs), "", null);
  line("proxy720: ours (nice 10, progress read)", formatMs(oursMs), "", null);
  line("  ... times real time", `${speed.toFixed(2)}x`, ">= 3x", speed >= 3);
  line("  ... of plain ffmpeg's speed", `${(ratio * 100).toFixed(0)} %`, ">= 90 %", ratio >= 0.9);
  line("  CPU time: plain ffmpeg", formatMs(plainCpu), "", null);
  line("  CPU time: ours", formatMs(oursCpu), "", null);
  line(
    "  ... plain's CPU time over ours",
    `${((plainCpu / oursCpu) * 100).toFixed(0)} %`,
    ">= 90 %",
    plainCpu / oursCpu >= 0.9,
  );
  line(
    "  ... real time on 2 cores' CPU alone",
    `${((durationMs * 2) / oursCpu).toFixed(2)}x`,
    ">= 3x",
    (durationMs * 2) / oursCpu >= 3,
  );
  line("waveform, per minute of media (wall)", formatMs(perMinute(wave.wall)), "", null);
  line("contact sheet, per minute of media (wall)", formatMs(perMinute(sheet.wall)), "", null);
  const both = perMinute(wave.wall + sheet.wall);
  line("  ... both, per minute of media (wall)", formatMs(both), "<= 1 s", both <= 1000);
  const bothCpu = perMinute(wave.cpu + sheet.cpu);
  line("  ... both, CPU time per minute of media", formatMs(bothCpu), "<= 1 s", bothCpu <= 1000);
  line("service: a video's renders, request to proxy ready", formatMs(transcodeMs), "", null);
  line("files list p99, nothing rendering", formatMs(baseP99, 2), "", null);
  line(
    `files list p99 while it transcodes (${samples[0]} samples)`,
    formatMs(duringP99, 2),
    "",
    null,
  );
  line(
    `  reference: while a CPU-only thread spins (${samples[1]})`,
    formatMs(spinP99, 2),
    "",
    null,
  );
  line(
    "  ... rise, transcode vs CPU-only reference",
    `${((duringP99 / spinP99 - 1) * 100).toFixed(0)} %`,
    "",
    null,
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
