type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level | "silent", number> = {
  debug: 10,
  info: 20,
  warn: 30,
  error: 40,
  silent: 99,
};

// Belt and braces: whatever a caller passes, a key or a signing secret never reaches a log line.
const SECRET = /(svc_sk_|whsec_)[A-Za-z0-9]+/g;

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/** Structured JSON lines on stderr (stdout is kept for what a person must read, like the sign-in URL). */
export function createLogger(
  level: Level | "silent",
  base: Record<string, unknown> = {},
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Logger {
  const emit = (lvl: Level, msg: string, fields?: Record<string, unknown>) => {
    if (order[lvl] < order[level]) return;
    const record = { time: new Date().toISOString(), level: lvl, msg, ...base, ...fields };
    write(
      JSON.stringify(record, (_k, v) => {
        if (v instanceof Error) return { name: v.name, message: v.message, stack: v.stack };
        return typeof v === "string" ? v.replace(SECRET, "$1[redacted]") : v;
      }),
    );
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
    child: (fields) => createLogger(level, { ...base, ...fields }, write),
  };
}
