import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "@/server/env";
import type { Logger } from "@/server/lib/logger";
import { startService } from "@/server/server";

/**
 * The real service over HTTP on a free port and a new temporary data dir, without demo content
 * or a built console. `env` adds settings; `log` receives what the service logs. The caller
 * stops it and removes `dir`.
 */
export async function startTempService(
  prefix: string,
  opts: { env?: NodeJS.ProcessEnv; log?: Logger } = {},
) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const service = await startService(
    loadConfig({
      DATA_DIR: dir,
      PORT: "0",
      LOG_LEVEL: "silent",
      DEMO_CONTENT: "0",
      STATIC_DIR: path.join(dir, "none"),
      ...opts.env,
    }),
    opts.log ? { log: opts.log } : {},
  );
  const { boot } = service;
  if (!boot.created) throw new Error("expected a fresh data dir");
  return { service, boot, dir };
}
