/**
 * The transfer agent (client `agent`): `npm run agent -- send|receive|run ...`. Exit code 0
 * only when every file arrived and was verified, 1 when any file failed (each is named with
 * the reason), 2 for a usage error.
 */
import { parseArgs } from "node:util";
import {
  GROWING_FILE_WAIT_MAX,
  PROTECTION_PASSWORD_MIN,
  TRANSFER_STREAMS_DEFAULT,
  TRANSFER_STREAMS_MAX,
  transferPrioritySchema,
} from "@/contract/transfers";
import { type AgentOptions, UsageError } from "./engine";
import type { OutputMode } from "./progress";
import { receive } from "./receive";
import { runSpec } from "./run-spec";
import { send } from "./send";
import { ServiceClient } from "./service";
import { defaultStateDir } from "./state";
import { RateLimit } from "./upload";

const HELP = `Consign transfer agent

  npm run agent -- send <local paths...> --to <workspace folder>
  npm run agent -- receive <workspace paths...> --to <local folder>
  npm run agent -- run <spec.json> [--to <local folder>]

Options
  --url <url>               the service, e.g. http://localhost:8787 (or CONSIGN_URL)
  --key <key>               an API key with files:read and files:write (or CONSIGN_KEY)
  --workspace <id>          the workspace (default: the key's own)
  --to <path>               where the files go (send: a workspace folder; receive: a local folder)
  --streams <n>             files in flight at once (1-${TRANSFER_STREAMS_MAX}, default ${TRANSFER_STREAMS_DEFAULT})
  --priority <p>            normal, deadline or background
  --growing-file-wait <s>   send a file only once it has not grown for this many seconds
  --password <text>         content protection: files are stored encrypted with a key from it,
                            and it is needed again to receive them (at least ${PROTECTION_PASSWORD_MIN} characters)
  --limit-rate <rate>       at most this many bytes per second in all, e.g. 500K, 20M
  --state-dir <dir>         where unfinished transfers are kept (default ~/.consign/agent)
  --json                    one JSON object per line: start, file, progress, done, error
  -h, --help                this text

Running the same command again after it (or the node) stopped resumes it: finished files are
not sent again and a partial file goes on from where it stopped.
Exit code: 0 every file arrived and was verified; 1 a file failed (named, with the reason);
2 a usage error.`;

function int(name: string, value: string | undefined, min: number, max: number) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  return n;
}

/** `500K`, `20M`, `1G` or a plain number, in bytes per second. */
function rate(value: string | undefined) {
  if (value === undefined) return null;
  const m = /^(\d+(?:\.\d+)?)([KMG]?)$/i.exec(value.trim());
  if (!m) throw new UsageError("--limit-rate takes bytes per second, e.g. 500K or 20M");
  const n = Number(m[1]) * { "": 1, K: 1e3, M: 1e6, G: 1e9 }[m[2]!.toUpperCase() as "K"];
  if (n <= 0) throw new UsageError("--limit-rate must be above 0");
  return new RateLimit(n);
}

async function main(argv: string[], env = process.env): Promise<number> {
  let json = argv.includes("--json");
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        url: { type: "string" },
        key: { type: "string" },
        workspace: { type: "string" },
        to: { type: "string" },
        streams: { type: "string" },
        priority: { type: "string" },
        "growing-file-wait": { type: "string" },
        password: { type: "string" },
        "limit-rate": { type: "string" },
        "state-dir": { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
    json = !!values.json;
    const [command, ...paths] = positionals;
    if (values.help || !command) {
      console.log(HELP);
      return values.help ? 0 : 2;
    }
    if (!["send", "receive", "run"].includes(command))
      throw new UsageError(`unknown command "${command}" (send, receive or run)`);
    if (paths.length === 0) throw new UsageError(`${command} needs at least one path`);
    if (command === "run" && paths.length > 1) throw new UsageError("run takes one spec file");
    if (command !== "run" && values.to === undefined) throw new UsageError(`${command} needs --to`);
    const priority = values.priority;
    if (priority !== undefined && !transferPrioritySchema.safeParse(priority).success)
      throw new UsageError("--priority is normal, deadline or background");
    const password = values.password;
    if (password !== undefined && password.length < PROTECTION_PASSWORD_MIN)
      throw new UsageError(`--password needs at least ${PROTECTION_PASSWORD_MIN} characters`);
    const url = values.url ?? env.CONSIGN_URL;
    const key = values.key ?? env.CONSIGN_KEY;
    if (command !== "run" && (!url || !key))
      throw new UsageError(
        "the service address and key are needed: --url and --key, or CONSIGN_URL and CONSIGN_KEY",
      );
    const mode: OutputMode = json ? "json" : process.stdout.isTTY ? "tty" : "plain";
    const opts: AgentOptions = {
      service: url && key ? new ServiceClient(url, key, values.workspace) : null,
      stateDir: values["state-dir"] ?? defaultStateDir(),
      mode,
      streams: int("streams", values.streams, 1, TRANSFER_STREAMS_MAX),
      priority: priority as AgentOptions["priority"],
      growingFileWaitSeconds: int(
        "growing-file-wait",
        values["growing-file-wait"],
        1,
        GROWING_FILE_WAIT_MAX,
      ),
      password,
      limit: rate(values["limit-rate"]),
    };
    const result =
      command === "send"
        ? await send(paths, values.to!, opts)
        : command === "receive"
          ? await receive(paths, values.to!, opts)
          : await runSpec(paths[0]!, values.to, opts);
    if (result.status === "paused" && !json)
      console.error(
        "The node could not be reached for some files; run the same command again to resume.",
      );
    return result.ok ? 0 : 1;
  } catch (e) {
    const usage =
      e instanceof UsageError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
    const message = (e as Error).message;
    if (json) console.log(JSON.stringify({ event: "error", message, usage }));
    else
      console.error(
        `${usage ? "usage" : "error"}: ${message}${usage ? "\n(npm run agent -- --help)" : ""}`,
      );
    return usage ? 2 : 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
