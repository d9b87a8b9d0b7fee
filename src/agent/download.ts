import { createHash, type Hash } from "node:crypto";
import fs from "node:fs";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { CONTENT_PASSWORD_HEADER, type TransferSpec } from "@/contract/transfers";
import { AgentError } from "./service";
import { FILE_SHA256_HEADER, type RateLimit } from "./upload";

const agents = {
  "http:": new http.Agent({ keepAlive: true }),
  "https:": new https.Agent({ keepAlive: true }),
};

/** Waits between attempts after a network failure or a 5xx (the node restarting). */
const RETRY_DELAYS = [500, 1000, 2000, 4000, 8000, 15_000, 30_000];

function get(url: URL, headers: Record<string, string>): Promise<IncomingMessage> {
  const mod = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.get(url, { headers, agent: agents[url.protocol as "http:"] }, resolve);
    req.on("error", reject);
  });
}

async function readBody(res: IncomingMessage) {
  let text = "";
  for await (const chunk of res) text += chunk;
  return text;
}

async function nodeRefusal(res: IncomingMessage, what: string) {
  const text = await readBody(res).catch(() => "");
  try {
    const { error } = JSON.parse(text) as {
      error: { code: string; message: string; details: unknown };
    };
    return new AgentError(
      `${what}: ${error.message}`,
      res.statusCode ?? 0,
      error.code,
      error.details,
    );
  } catch {
    return new AgentError(
      `${what}: HTTP ${res.statusCode} ${text.slice(0, 200)}`,
      res.statusCode ?? 0,
      "http",
    );
  }
}

/** Feeds a hash with what is already in the partial file. */
async function hashExisting(hash: Hash, file: string) {
  await pipeline(fs.createReadStream(file, { highWaterMark: 1 << 20 }), async (source) => {
    for await (const chunk of source) hash.update(chunk as Buffer);
  });
}

export interface DownloadInput {
  workspacePath: string;
  local: string;
  /** The hash the listing gave, checked as well as the node's header. */
  sha256?: string | null;
}

export interface DownloadOptions {
  spec: Pick<TransferSpec, "node" | "token">;
  password?: string;
  limit?: RateLimit | null;
  /** Bytes now in the partial file (a running figure; it starts at what an earlier run left). */
  onBytes?: (bytes: number, total: number | null) => void;
}

/**
 * Downloads one file from the spec's node into `<local>.part`, continuing a partial file with
 * a Range request, checks its SHA-256 against the node's `Consign-File-Sha256` header, then
 * renames it into place. Retries after network failures and 5xx from where the file stopped.
 */
export async function downloadFile(
  file: DownloadInput,
  opts: DownloadOptions,
): Promise<{ size: number; sha256: string; resumedFrom: number }> {
  const what = `download of ${file.workspacePath}`;
  const part = `${file.local}.part`;
  await fs.promises.mkdir(path.dirname(file.local), { recursive: true });
  const url = new URL(opts.spec.node.files);
  url.searchParams.set("path", file.workspacePath);
  let restarted = false;
  let resumedFrom = 0;
  for (let attempt = 0; ; attempt++) {
    try {
      const have = await fs.promises.stat(part).then(
        (s) => s.size,
        () => 0,
      );
      const res = await get(url, {
        Authorization: `Bearer ${opts.spec.token}`,
        ...(opts.password ? { [CONTENT_PASSWORD_HEADER]: opts.password } : {}),
        ...(have > 0 ? { Range: `bytes=${have}-` } : {}),
        // A file replaced since the partial was written comes back whole (200).
        ...(have > 0 && file.sha256 ? { "If-Range": `"${file.sha256}"` } : {}),
      });
      const status = res.statusCode ?? 0;
      if (status === 416) {
        // The partial already holds every byte (or more than the file has): check it whole.
        res.resume();
        const total = Number(/\/(\d+)$/.exec(res.headers["content-range"] ?? "")?.[1]);
        if (total !== have) {
          await fs.promises.rm(part, { force: true });
          continue;
        }
      } else if (status !== 200 && status !== 206) {
        const err = await nodeRefusal(res, what);
        if (status >= 500 && attempt < RETRY_DELAYS.length) {
          await new Promise((r) => setTimeout(r, RETRY_DELAYS[attempt]));
          continue;
        }
        throw err;
      }
      const hash = createHash("sha256");
      const from = status === 206 || status === 416 ? have : 0;
      resumedFrom ||= from;
      if (from > 0) await hashExisting(hash, part);
      const total =
        status === 206
          ? Number(/\/(\d+)$/.exec(res.headers["content-range"] ?? "")?.[1])
          : status === 200
            ? Number(res.headers["content-length"])
            : have;
      let written = from;
      opts.onBytes?.(written, Number.isFinite(total) ? total : null);
      if (status !== 416) {
        const out = fs.createWriteStream(part, { flags: from > 0 ? "a" : "w", mode: 0o644 });
        const limit = opts.limit;
        await pipeline(
          res,
          async function* (source: AsyncIterable<Buffer>) {
            for await (const chunk of limit ? limit.through(source) : source) {
              hash.update(chunk as Buffer);
              written += (chunk as Buffer).length;
              opts.onBytes?.(written, Number.isFinite(total) ? total : null);
              yield chunk;
            }
          },
          out,
        );
      }
      const sha256 = hash.digest("hex");
      const told = res.headers[FILE_SHA256_HEADER.toLowerCase()];
      const expected = (typeof told === "string" ? told : null) ?? file.sha256 ?? null;
      if (Number.isFinite(total) && written !== total)
        throw new AgentError(`${what}: got ${written} of ${total} bytes`, 0, "network");
      if ((expected && sha256 !== expected) || (file.sha256 && sha256 !== file.sha256)) {
        await fs.promises.rm(part, { force: true });
        // A partial from an earlier run may have held other bytes: one fresh try.
        if (from > 0 && !restarted) {
          restarted = true;
          continue;
        }
        throw new AgentError(
          `${what}: SHA-256 ${sha256} does not match ${expected ?? file.sha256}`,
          0,
          "checksum_mismatch",
        );
      }
      await fs.promises.rename(part, file.local);
      return { size: written, sha256, resumedFrom };
    } catch (e) {
      const retryable = !(e instanceof AgentError) || e.code === "network";
      if (!retryable || attempt >= RETRY_DELAYS.length) throw e;
      await new Promise((r) => setTimeout(r, RETRY_DELAYS[attempt]));
    }
  }
}
