import { spawn } from "node:child_process";
import type { Readable } from "node:stream";

/** A render that ffmpeg or poppler refused: `message` is the tool's own reason. */
export class RenderError extends Error {}

/** Below requests: a render takes what CPU the service leaves (Linux nice, 0 to 19). */
const NICE = 10;
/** The stderr kept for the reason of a failure. */
const STDERR_KEPT = 16 * 1024;

export interface ToolRun {
  /** Read as it comes (ffmpeg's `-progress pipe:1`, raw samples); drained when absent. */
  stdout?: (out: Readable) => Promise<void> | void;
  /** Masked out of the reason (the blob's path on disk says nothing to a person). */
  input?: string;
  timeoutMs?: number;
}

/**
 * Runs ffmpeg, ffprobe or a poppler tool at a lower CPU priority than the service (`nice`), and
 * resolves when it exits 0. Otherwise a RenderError with its last meaningful stderr line (the
 * tools run with `-v error`, so that is the error itself). The output is a pipe: when the
 * service dies (kill -9) the tool's next write fails and it ends too, instead of rendering on
 * for nobody.
 */
export function runTool(tool: string, args: string[], opts: ToolRun = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("nice", ["-n", String(NICE), tool, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr = (stderr + d.toString("utf8")).slice(-STDERR_KEPT);
    });
    const reading = opts.stdout ? Promise.resolve(opts.stdout(child.stdout)) : null;
    if (!reading) child.stdout.resume();
    const timer = opts.timeoutMs
      ? setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs).unref()
      : null;
    child.on("error", (err) => reject(new RenderError(`${tool} could not start: ${err.message}`)));
    child.on("close", (code, signal) => {
      if (timer) clearTimeout(timer);
      if (code === 0) {
        (reading ?? Promise.resolve()).then(resolve, reject);
        return;
      }
      const lines = stderr
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean);
      let reason = lines.at(-1) ?? (signal ? `${tool} was stopped (${signal})` : `${tool} failed`);
      if (opts.input) reason = reason.split(opts.input).join("input");
      reject(new RenderError(reason));
    });
  });
}

/**
 * Reads ffmpeg's `-progress pipe:1` key=value blocks and reports the share of `durationMs`
 * encoded so far (0 to 1).
 */
export async function readProgress(
  out: Readable,
  durationMs: number | null,
  report: (fraction: number) => void,
) {
  let rest = "";
  for await (const chunk of out as AsyncIterable<Buffer>) {
    const lines = (rest + chunk.toString("utf8")).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) {
      const m = /^out_time_(?:us|ms)=(\d+)/.exec(line);
      if (m && durationMs) report(Math.min(1, Number(m[1]) / 1000 / durationMs));
    }
  }
}
