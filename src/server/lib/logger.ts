type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level | "silent", number> = {
  debug: 10,
  info: 20,
  warn: 30,
  error: 40,
  silent: 99,
};

/*
 * Whatever a caller passes, no credential reaches a log line: every string (a message, a field,
 * an error's message and stack) is scrubbed here, once, rather than at each call.
 * - By shape: API keys, webhook signing secrets, transfer tokens, the access tokens a password
 *   buys (`{expiresAtMs}.{HMAC}`, lib/access-tokens), tus upload ids (32 hex digits).
 * - By place: a share token has no shape of its own (base62, like much else), so the path
 *   segments that carry a credential are masked wherever a path appears: a share's links (plain
 *   and personal), the recipient page's API, a portal's page and API (its slug is its address,
 *   and an upload's id follows it), a signed media address, a node upload's URL; and a
 *   `token`/`key` query parameter or a Bearer credential.
 */
const SCRUB: [RegExp, string][] = [
  [/\b(svc_sk_|whsec_)[A-Za-z0-9]+/g, "$1[redacted]"],
  // A transfer token is signed claims: base64url, a dot, base64url.
  [/\bctt_[A-Za-z0-9_.-]+/g, "ctt_[redacted]"],
  [/\b\d{13}\.[A-Za-z0-9_-]{43}/g, "[redacted]"],
  [/\b[0-9a-f]{32}\b/g, "[redacted]"],
  [
    /(\/s\/|\/p\/|\/public\/shares\/|\/public\/portals\/|\/public\/media\/|\/node\/v1\/uploads\/)[^/?#\s"']+/g,
    "$1[redacted]",
  ],
  // A portal upload's id (after its portal's slug, masked above) opens its status page's API.
  [/(\/public\/portals\/\[redacted\]\/uploads\/)[^/?#\s"']+/g, "$1[redacted]"],
  [/([?&](?:token|key)=)[^&#\s"']+/g, "$1[redacted]"],
  [/\b(Bearer|Basic)\s+[^\s"']+/gi, "$1 [redacted]"],
];
/** Fields whose whole value is a credential, whatever it looks like (lower-cased names). */
const SECRET_FIELDS = new Set(["authorization", "token", "password", "accesstoken", "secret"]);

/** The text with every credential this service knows masked. */
function redactCredentials(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SCRUB) out = out.replace(pattern, replacement);
  return out;
}

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
      JSON.stringify(record, (k, v) => {
        if (v instanceof Error) return { name: v.name, message: v.message, stack: v.stack };
        if (typeof v !== "string") return v;
        return SECRET_FIELDS.has(k.toLowerCase()) ? "[redacted]" : redactCredentials(v);
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
