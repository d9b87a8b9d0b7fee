import fs from "node:fs";
import type { Readable } from "node:stream";
import { WAVEFORM_HEADER_BYTES, WAVEFORM_MAX_PAIRS } from "@/contract/media-rules";
import { RenderError, runTool } from "./tool";

/** The rate the mono mix is decoded at for its peaks: enough for a drawing, cheap to decode. */
const RATE = 16_000;
export const WAVEFORM_SETTINGS = `audiowaveform-v1 8bit mono ${RATE}Hz <=${WAVEFORM_MAX_PAIRS}pairs`;

/**
 * Min/max pairs of signed 16-bit samples, `samplesPerPair` samples each, at most `maxPairs`
 * (samples past the last pair fold into it, should the stream run longer than probed).
 */
export class PeakBuilder {
  private mins: number[] = [];
  private maxs: number[] = [];
  private inPair = 0;
  private carry: Buffer | null = null;

  constructor(
    readonly samplesPerPair: number,
    private readonly maxPairs = WAVEFORM_MAX_PAIRS,
  ) {}

  push(chunk: Buffer) {
    const bytes = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    const whole = bytes.length - (bytes.length % 2);
    this.carry = whole < bytes.length ? bytes.subarray(whole) : null;
    for (let i = 0; i < whole; i += 2) {
      const v = bytes.readInt16LE(i);
      if (this.inPair === 0 && this.mins.length < this.maxPairs) {
        this.mins.push(v);
        this.maxs.push(v);
      } else {
        const last = this.mins.length - 1;
        if (v < this.mins[last]!) this.mins[last] = v;
        if (v > this.maxs[last]!) this.maxs[last] = v;
      }
      this.inPair = (this.inPair + 1) % this.samplesPerPair;
    }
  }

  /** The BBC audiowaveform binary format, version 1, 8-bit (contract/media-rules.ts). */
  bytes(sampleRate: number): Buffer {
    const pairs = this.mins.length;
    const out = Buffer.alloc(WAVEFORM_HEADER_BYTES + pairs * 2);
    out.writeInt32LE(1, 0);
    out.writeUInt32LE(1, 4);
    out.writeInt32LE(sampleRate, 8);
    out.writeInt32LE(this.samplesPerPair, 12);
    out.writeUInt32LE(pairs, 16);
    const eight = (v: number) => Math.max(-128, Math.min(127, Math.round(v / 256)));
    for (let i = 0; i < pairs; i++) {
      out.writeInt8(eight(this.mins[i]!), WAVEFORM_HEADER_BYTES + i * 2);
      out.writeInt8(eight(this.maxs[i]!), WAVEFORM_HEADER_BYTES + i * 2 + 1);
    }
    return out;
  }
}

/**
 * The waveform of the first audio stream: ffmpeg decodes it as a mono mix of raw 16-bit samples
 * at 16 kHz into a pipe, and the peaks are taken as it streams (nothing decoded is kept). The
 * other streams are dropped in the demuxer (`-vn -sn -dn` before `-i`): a video's packets are
 * never handed on.
 */
export async function renderWaveform(source: string, out: string, durationMs: number | null) {
  const expected = Math.ceil(((durationMs ?? 0) / 1000) * RATE);
  const peaks = new PeakBuilder(Math.max(1, Math.ceil(expected / WAVEFORM_MAX_PAIRS)));
  await runTool(
    "ffmpeg",
    [
      ...["-hide_banner", "-v", "error", "-nostdin", "-vn", "-sn", "-dn", "-i", source],
      ...["-map", "0:a:0"],
      ...["-ac", "1", "-ar", String(RATE), "-f", "s16le", "-c:a", "pcm_s16le", "pipe:1"],
    ],
    {
      input: source,
      stdout: async (stdout: Readable) => {
        for await (const chunk of stdout as AsyncIterable<Buffer>) peaks.push(chunk);
      },
    },
  );
  const bytes = peaks.bytes(RATE);
  if (bytes.length === WAVEFORM_HEADER_BYTES) throw new RenderError("the audio has no samples");
  fs.writeFileSync(out, bytes, { mode: 0o600 });
  return { durationMs, sizeBytes: bytes.length };
}
