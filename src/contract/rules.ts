/**
 * The contract's rules as plain functions and constants, without zod. The zod schemas are built
 * from these; the console imports this module (and only types from the others) so that its
 * first download carries no schema library. See docs/architecture.md, "The console's budget".
 */

/** Every scope a key can carry (spec, Authentication). */
export const scopes = [
  "files:read",
  "files:write",
  "shares:write",
  "portals:write",
  "receipts:read",
  "webhooks:manage",
  "usage:read",
] as const;
export type Scope = (typeof scopes)[number];

export const API_KEY_PREFIX = "svc_sk_";
/** `svc_sk_` followed by at least 32 base62 characters (spec Authentication 1). */
export const apiKeyPattern = /^svc_sk_[A-Za-z0-9]{32,}$/;

export const MAX_PATH_LENGTH = 4096;
/** A name, and so each segment of a path, is at most this many characters (spec rename bounds). */
export const MAX_NAME_LENGTH = 255;

// With the u flag a surrogate pair is one code point, so only a lone surrogate is in Cs.
// (String.prototype.isWellFormed does the same but is newer than the browsers we support.)
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Whether a string is well-formed Unicode: no lone surrogate, which UTF-8 (and so SQLite, a
 * file system or a JSON encoder) cannot hold and silently replaces or mangles.
 */
export const isWellFormedText = (s: string) => !LONE_SURROGATE.test(s);

/**
 * The first `max` code points of a string: a cut by UTF-16 units (`slice`) can split an emoji's
 * surrogate pair and leave a lone surrogate, which no path or JSON encoder holds.
 */
export function firstCodePoints(s: string, max: number) {
  if (s.length <= max) return s;
  let out = "";
  let count = 0;
  for (const ch of s) {
    if (count++ === max) break;
    out += ch;
  }
  return out;
}

/**
 * Paths and names are compared in Unicode Normalization Form C, so that "é" typed as one code
 * point (most systems) and as e + combining accent (macOS file names) name the same file.
 */
export const normalizeName = (s: string) => s.normalize("NFC");

/**
 * Why a workspace path is rejected, or null when it is acceptable. Shared by the service
 * (which answers `path_rejected`) and the console (which checks before sending).
 */
export function pathProblem(path: string): string | null {
  if (path === "") return null;
  if (!isWellFormedText(path)) return "must be well-formed Unicode (it holds a lone surrogate)";
  // Here, not only in the API's schemas: the data node takes paths from tus metadata.
  if (path.length > MAX_PATH_LENGTH)
    return `must be at most ${MAX_PATH_LENGTH} characters in Unicode NFC (it has ${path.length})`;
  if (path.startsWith("/")) return "must be relative to the workspace root (no leading /)";
  if (path.includes("\\")) return "must use / between folders, not \\";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we reject
  if (/[\u0000-\u001f\u007f-\u009f]/.test(path)) return "must not contain control characters";
  const segments = path.split("/");
  if (segments.some((s) => s === "")) return "must not contain empty segments (// or a trailing /)";
  if (segments.some((s) => s === "." || s === "..")) return "must not contain . or .. segments";
  const long = segments.find((s) => s.length > MAX_NAME_LENGTH);
  if (long !== undefined)
    return `must not have a name over ${MAX_NAME_LENGTH} characters ("${firstCodePoints(long, 24)}…" has ${long.length})`;
  return null;
}

/** Why a single name inside a folder is not acceptable (spec rename bounds), or null. */
export function nameProblem(name: string): string | null {
  if (name.length === 0) return "A name cannot be empty";
  if (!isWellFormedText(name)) return "A name must be well-formed Unicode (no lone surrogate)";
  if (name.length > MAX_NAME_LENGTH) return `A name is at most ${MAX_NAME_LENGTH} characters`;
  if (name.includes("/")) return "A name cannot contain /";
  if (name === "." || name === "..") return "A name cannot be . or ..";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we reject
  if (/[\u0000-\u001f\u007f-\u009f\\]/.test(name))
    return "A name cannot contain control characters or \\";
  return null;
}

export const fileSortFields = ["name", "size", "modified"] as const;
export type FileSortField = (typeof fileSortFields)[number];
export const sortOrders = ["asc", "desc"] as const;
export type SortOrder = (typeof sortOrders)[number];

/**
 * The order key for "folders first, then name": case-insensitive and natural (frame_2 before
 * frame_10, since digit runs are zero-padded), then the exact name after \u0001 so the key is
 * unique among siblings, which keyset seeks need. Names cannot hold control characters, so
 * \u0001 sorts below anything that follows it. The service stores it; the console uses it to
 * binary-search a listing for a name without reading it all.
 */
export function nameSortKey(name: string): string {
  const folded = name.toLowerCase().replace(/\d+/g, (run) => {
    const digits = run.replace(/^0+(?=\d)/, "");
    return digits.length <= 20 ? digits.padStart(20, "0") : digits;
  });
  return `${folded}\u0001${name}`;
}

export function parentOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

export const baseName = (path: string) => path.slice(path.lastIndexOf("/") + 1);

export const joinPath = (folder: string, name: string) => (folder ? `${folder}/${name}` : name);

/**
 * The names files get in a ZIP of some of a share's files: each path from the files' deepest
 * common folder down (`Out/cut/a.mov` and `Out/notes.txt` give `cut/a.mov` and `notes.txt`).
 * The data node names the entries so, and the recipient page finds each file by that name.
 */
export function namesBelowCommonFolder(paths: readonly string[]): string[] {
  let common = paths.length > 0 ? parentOf(paths[0]!) : "";
  for (const p of paths) while (common && !p.startsWith(`${common}/`)) common = parentOf(common);
  return paths.map((p) => (common ? p.slice(common.length + 1) : p));
}

/**
 * A file name that is a frame of a numbered set: a run of at least three digits ending its stem
 * (`shot.0001.exr`, `0001.dpx`, `plate_v2_1001`). Frames of one set share the folder, the
 * prefix, the digit count and the extension: not `shot.1.exr`, not `shot.0001.dpx`. Fewer
 * digits (`take2.mov`) are a name, not a frame: selecting it must not bring its siblings.
 */
export function sequenceFrame(
  name: string,
): { prefix: string; digits: number; ext: string } | null {
  const dot = name.lastIndexOf(".");
  const ext = dot > 0 ? name.slice(dot) : "";
  const stem = name.slice(0, name.length - ext.length);
  const m = /(\d{3,})$/.exec(stem);
  if (!m) return null;
  return { prefix: stem.slice(0, m.index), digits: m[1]!.length, ext };
}

/** The key the frames of one set share (within a folder); null for a name that is no frame. */
export function sequenceKey(name: string): string | null {
  const frame = sequenceFrame(name);
  return frame && `${frame.prefix}\u0001${frame.digits}\u0001${frame.ext}`;
}

/**
 * The image types sharp decodes for a thumbnail (`GET W/files/preview`, a share's thumbnails);
 * other images (EXR, say) answer `no_preview`. Video, PDF and audio: `thumbnailKindOf`.
 */
export const thumbnailMimeTypes: readonly string[] = [
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/gif",
  "image/tiff",
];

/** Spec Events: the schedule of retries after a failed attempt, then the delivery is failed. */
export const RETRY_SCHEDULE_MS = [60_000, 300_000, 1_800_000, 7_200_000, 43_200_000] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;
/** Consecutive failed attempts that disable an endpoint. */
export const DISABLE_AFTER_FAILURES = 20;
export const SIGNATURE_TOLERANCE_SECONDS = 300;
export const SIGNATURE_HEADER = "Service-Signature";
export const EVENT_HEADER = "Service-Event";
export const DELIVERY_HEADER = "Service-Delivery";
export const SECRET_PREFIX = "whsec_";
/** Deliveries per page of `GET W/webhooks/{id}/deliveries` (here so the console need not load zod). */
export const DELIVERIES_PAGE_DEFAULT = 50;
export const DELIVERIES_PAGE_MAX = 200;

/** `t=<unix seconds>,v1=<hex>` parsed, or null when malformed. Several v1 values may be present. */
export function parseSignatureHeader(header: string): { t: number; v1: string[] } | null {
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.trim().split("=", 2);
    if (key === "t" && value && /^\d+$/.test(value)) t = Number(value);
    else if (key === "v1" && value && /^[0-9a-f]{64}$/i.test(value)) v1.push(value.toLowerCase());
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}

/* Server-side jobs (spec rows 16-19 and the bulk extension; docs/api-decisions.md). */
/** Items per move or copy job (spec Limits). */
export const OPERATION_ITEMS_MAX = 200;
export const OPERATIONS_LIST_DEFAULT = 50;
export const OPERATIONS_LIST_MAX = 200;
/** A move or copy job's size limit (spec Limits: 500 GB; `plan_limit` past it). */
export const OPERATION_BYTES_MAX = 500_000_000_000;
/** Paths per batch rename (spec Limits). */
export const RENAME_PATHS_MAX = 200;
/**
 * Bulk selections listed item by item. Bigger selections are "all except": a folder's children
 * or the trash items matching a filter. Each fits the 1 MiB body limit.
 */
export const BULK_PATHS_MAX = 10_000;
export const BULK_IDS_MAX = 20_000;
export const BULK_EXCEPT_MAX = 10_000;

/* Transfers (spec: Transfers, Limits; docs/api-decisions.md, Transfers). */
export const TRANSFER_PATHS_MAX = 10_000;
export const TRANSFER_STREAMS_MAX = 128;
export const TRANSFER_STREAMS_DEFAULT = 4;
export const GROWING_FILE_WAIT_MAX = 3600;
export const DELIVER_TO_MAX = 20;
export const PROTECTION_PASSWORD_MIN = 8;
export const PROTECTION_PASSWORD_MAX = 256;
export const TRANSFER_ERROR_MESSAGE_MAX = 500;
export const TRANSFERS_LIST_DEFAULT = 50;
export const TRANSFERS_LIST_MAX = 200;
/** A spec's token must be first used at the node within this window (`expiresAt`). */
export const TRANSFER_START_WINDOW_SECONDS = 15 * 60;
/**
 * Once used, the token stays good while the transfer is not terminal and was active within
 * this long, so a paused or interrupted transfer resumes after the start window.
 */
export const TRANSFER_RESUME_WINDOW_SECONDS = 7 * 24 * 3600;
/** Every data node is full (429 `node_busy`): a create may be tried again after this long. */
export const NODE_BUSY_RETRY_AFTER_SECONDS = 30;
/** The protocol the spec's data node speaks: the record's `engine`. */
export const TRANSFER_ENGINE = "tus/1.0.0";
/** Headers the data node reads besides tus's own. */
export const TRANSFER_TOKEN_HEADER = "Authorization";
export const CONTENT_PASSWORD_HEADER = "Consign-Content-Password";
/** Engines report progress at most this often (not per chunk), and always on a state change. */
export const PROGRESS_MIN_INTERVAL_MS = 1000;
export const transferStates = [
  "queued",
  "running",
  "paused",
  "completed",
  "failed",
  "cancelled",
] as const;
export type TransferState = (typeof transferStates)[number];
/** Who runs a transfer (spec: create body `client`). */
export const transferClients = [
  "web",
  "desktop",
  "mobile",
  "gateway",
  "share",
  "portal",
  "agent",
] as const;
export const terminalTransferStates: readonly TransferState[] = [
  "completed",
  "failed",
  "cancelled",
];
/**
 * The moves a PATCH may make (docs/api-decisions.md, Transfer states). Reporting the current
 * state again is always allowed (a progress update); terminal states stay terminal.
 */
export const transferMoves: Readonly<Record<TransferState, readonly TransferState[]>> = {
  queued: ["running", "paused", "completed", "failed", "cancelled"],
  running: ["paused", "completed", "failed", "cancelled"],
  paused: ["running", "failed", "cancelled"],
  completed: [],
  failed: [],
  cancelled: [],
};
export const canMoveTransfer = (from: TransferState, to: TransferState) =>
  from === to ? !terminalTransferStates.includes(from) : transferMoves[from].includes(to);

/* Shares and receipts (spec: Shares, Receipts; docs/api-decisions.md, Shares and receipts). */
/** Paths named by one share; each may be a file or a folder. */
export const SHARE_PATHS_MAX = 100;
/** Files one share may hold, folders expanded: every one is listed with its checksum on the receipt. */
export const SHARE_FILES_MAX = 10_000;
export const SHARE_TITLE_MAX = 200;
export const SHARE_MESSAGE_MAX = 2000;
export const SHARE_EXPIRES_DAYS_DEFAULT = 7;
export const SHARE_EXPIRES_DAYS_MAX = 365;
export const SHARE_MAX_DOWNLOADS_MAX = 10_000;
export const SHARE_PASSWORD_MIN = 8;
export const SHARE_PASSWORD_MAX = 256;
export const SHARE_RECIPIENTS_MAX = 50;
/** RFC 5321's longest usable address. */
export const EMAIL_MAX = 254;
export const SHARE_COMMENT_MAX = 2000;
export const SHARES_LIST_DEFAULT = 50;
export const SHARES_LIST_MAX = 200;
/** Shares one bulk extend or revoke names: one request's worth, done in one transaction. */
export const SHARES_BULK_MAX = 500;
export const SHARE_COMMENTS_PAGE_DEFAULT = 200;
export const SHARE_COMMENTS_PAGE_MAX = 500;
export const OUTBOX_PAGE_DEFAULT = 50;
export const OUTBOX_PAGE_MAX = 200;
/** Wrong passwords free of delay per share and address within the window; then each try waits. */
export const SHARE_PASSWORD_FREE_TRIES = 5;
export const SHARE_PASSWORD_WINDOW_SECONDS = 15 * 60;
/** The longest wait after a run of wrong passwords (the wait doubles from 1 s up to this). */
export const SHARE_PASSWORD_MAX_DELAY_SECONDS = 15 * 60;
/**
 * Wrong passwords per share, per portal or per protected transfer from all addresses within the
 * window: beyond it every try waits until the oldest leaves the window, so many addresses
 * together guess no faster than ten patient ones.
 */
export const SHARE_PASSWORD_TARGET_CEILING = 50;
/** Where the recipient page lives: `${origin}/s/{token}`. */
export const SHARE_LINK_PREFIX = "/s/";
/** The header carrying the access token a share's password unlocks (the recipient page's API). */
export const SHARE_ACCESS_HEADER = "Consign-Share-Access";
/** How long that access token lasts: long enough for a visit, short enough to be worth little. */
export const SHARE_ACCESS_TTL_SECONDS = 2 * 60 * 60;
export const shareStatuses = ["active", "expired", "revoked", "exhausted"] as const;
export type ShareStatus = (typeof shareStatuses)[number];

/**
 * A share's status: revoked (for good), else expired (its time passed; an extension brings it
 * back), else exhausted (maxDownloads completed downloads; raising the limit brings it back),
 * else active. Times are epoch milliseconds.
 */
export function shareStatusOf(
  s: {
    revokedAt: number | null;
    expiresAt: number;
    maxDownloads: number | null;
    downloads: number;
  },
  now: number,
): ShareStatus {
  if (s.revokedAt !== null) return "revoked";
  if (s.expiresAt <= now) return "expired";
  if (s.maxDownloads !== null && s.downloads >= s.maxDownloads) return "exhausted";
  return "active";
}

/**
 * One CSV field per RFC 4180. Text is always quoted (quotes doubled): a spreadsheet that splits
 * on another separator (";" in many locales) would otherwise read `a;=1+2;x.txt` as a formula
 * field. Text it would run as a formula (a leading =, +, -, @, tab or CR) is prefixed with a '
 * so it opens as text. Numbers and null (empty) are written bare.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${text.replaceAll('"', '""')}"`;
}
