/**
 * Upload portals' rules as plain functions and constants, without zod (like `rules.ts`): the
 * service builds its schemas from them, and the console's portal forms and the public portal
 * page check the same rules before anything is sent. A module of its own so the console's first
 * load does not carry them (docs/architecture.md, The console's budget).
 */

import { baseName, firstCodePoints } from "./rules";

/* Bounds the spec states (Portals, Limits). */
export const PORTAL_TITLE_MAX = 120;
export const PORTAL_MESSAGE_MAX = 2000;
export const PORTAL_PASSWORD_MIN = 8;
export const PORTAL_PASSWORD_MAX = 256;
export const PORTAL_EXPIRES_DAYS_MAX = 3650;
export const PORTAL_FIELDS_MAX = 20;
export const PORTAL_INVITES_MAX = 100;
export const PORTAL_PROJECT_ID_MAX = 64;
export const REVIEW_NOTE_MAX = 500;

/* Bounds the spec leaves open (docs/api-decisions.md, Portals). */
export const PORTAL_FIELD_KEY_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;
export const PORTAL_FIELD_LABEL_MAX = 120;
export const PORTAL_FIELD_VALUE_MAX = 2000;
/** One extension, without its dot, lowercase: `mov`, `r3d`, `tar.gz` is `gz`. */
export const PORTAL_EXTENSION_PATTERN = /^[a-z0-9]{1,16}$/;
export const PORTAL_EXTENSIONS_MAX = 50;
export const PORTAL_MAX_FILES_MAX = 10_000;
export const PORTAL_NAME_PATTERN_MAX = 200;
export const PORTAL_SPEC_NAME_MAX = 120;
export const PORTAL_SPEC_VALUES_MAX = 20;
export const PORTAL_SPEC_VALUE_PATTERN = /^[a-z0-9_]{1,32}$/;
/** 5 TiB: more than one upload of any portal we know of takes. */
export const PORTAL_MAX_BYTES_MAX = 5 * 1024 ** 4;
export const PORTAL_SENDER_NAME_MAX = 200;
export const PORTAL_SENDER_MESSAGE_MAX = 2000;
export const PHONE_PATTERN = /^\+[1-9][0-9]{6,14}$/;
export const PORTALS_LIST_MAX = 500;
export const PORTAL_UPLOADS_PAGE_DEFAULT = 100;
export const PORTAL_UPLOADS_PAGE_MAX = 500;
/** Files a portal upload lists in its record (the queue's thumbnails); the rest are counted. */
export const PORTAL_UPLOAD_FILES_SHOWN = 12;
/** The review queue's search (sender name or address, portal title): characters at most. */
export const PORTAL_UPLOADS_SEARCH_MAX = 200;
/** Uploads one bulk review decides: a page of the queue is 100 rows. */
export const REVIEW_BULK_MAX = 100;
/** A review note on an upload's files (time-coded notes, docs/api-decisions.md, Media). */
export const UPLOAD_NOTE_MAX = 2000;
/** Notes one upload holds at most; the list returns them all. */
export const UPLOAD_NOTES_MAX = 500;
/** Where a portal's public page lives: `${origin}/p/{slug}`. */
export const PORTAL_LINK_PREFIX = "/p/";
/** The header carrying the access token a portal's password unlocks. */
export const PORTAL_ACCESS_HEADER = "Consign-Portal-Access";

/*
 * The sender's status page of one upload: `/p/{slug}/status/{uploadId}#{token}`. The token (in
 * the fragment, so no server or Referer sees it) goes to the API in PORTAL_STATUS_HEADER.
 */
export const PORTAL_STATUS_SEGMENT = "/status/";
export const PORTAL_STATUS_HEADER = "Consign-Upload-Status";

/** What the sender's status page says of an upload (pending is a reviewer's hold: in review). */
export const senderStatuses = ["received", "in_review", "approved", "rejected"] as const;
export type SenderStatus = (typeof senderStatuses)[number];

/** Which decisions mail the sender, by default: a rejection (they must act), not an approval. */
export const NOTIFY_SENDER_DEFAULT = { approved: false, rejected: true } as const;
export const PORTAL_ACCESS_TTL_SECONDS = 6 * 60 * 60;

/** At least `min`, at most `max`: characters of a text, items of a list, or a number's value. */
export interface Bounds {
  min: number;
  max: number;
}

/**
 * Each member's bounds in one place: `portals.ts` builds the service's schemas from them, and
 * the console's portal form holds what is typed to them before sending.
 */
export const portalBounds = {
  title: { min: 1, max: PORTAL_TITLE_MAX },
  message: { min: 0, max: PORTAL_MESSAGE_MAX },
  password: { min: PORTAL_PASSWORD_MIN, max: PORTAL_PASSWORD_MAX },
  projectId: { min: 0, max: PORTAL_PROJECT_ID_MAX },
  expiresInDays: { min: 1, max: PORTAL_EXPIRES_DAYS_MAX },
  maxBytesPerUpload: { min: 1, max: PORTAL_MAX_BYTES_MAX },
  invites: { min: 0, max: PORTAL_INVITES_MAX },
  fields: { min: 0, max: PORTAL_FIELDS_MAX },
  fieldLabel: { min: 1, max: PORTAL_FIELD_LABEL_MAX },
  allowedExtensions: { min: 0, max: PORTAL_EXTENSIONS_MAX },
  maxFiles: { min: 1, max: PORTAL_MAX_FILES_MAX },
  namePattern: { min: 1, max: PORTAL_NAME_PATTERN_MAX },
  specName: { min: 1, max: PORTAL_SPEC_NAME_MAX },
  specValues: { min: 0, max: PORTAL_SPEC_VALUES_MAX },
} as const satisfies Record<string, Bounds>;

/* The checks the console's form makes with those bounds, worded for a person typing. */

export const tooLong = (text: string, { max }: Bounds) =>
  text.length > max ? `At most ${max} characters.` : undefined;

/** A whole number typed within the bounds (spaces around allowed). */
export const wholeIn = (text: string, { min, max }: Bounds) => {
  const n = Number(text.trim());
  return /^\d+$/.test(text.trim()) && n >= min && n <= max;
};

/** The first value `pattern` refuses, named, else too many values (`unit`: of what), else nothing. */
export function listProblem(
  values: readonly string[],
  pattern: { test(value: string): boolean },
  { max }: Bounds,
  what: string,
  unit?: string,
): string | undefined {
  const bad = values.find((v) => !pattern.test(v));
  if (bad !== undefined) return `“${bad}” is not ${what}.`;
  return values.length > max ? `At most ${max}${unit ? ` ${unit}` : ""}.` : undefined;
}

export const portalStatuses = ["active", "paused", "revoked"] as const;
export type PortalStatus = (typeof portalStatuses)[number];
/**
 * A portal upload's life: `uploading` while its files arrive, `received` once they all landed
 * (waiting for review), then what a reviewer decided (`approved`, `rejected`, or `pending`: held,
 * to decide later); `failed` when the sender's upload ended without landing.
 */
export const portalUploadStatuses = [
  "uploading",
  "received",
  "pending",
  "approved",
  "rejected",
  "failed",
] as const;
export type PortalUploadStatus = (typeof portalUploadStatuses)[number];
export const reviewDecisions = ["approved", "rejected", "pending"] as const;
export type ReviewDecision = (typeof reviewDecisions)[number];
/** Statuses that wait for a reviewer: what the portals list counts as "to review". */
export const awaitingReviewStatuses: readonly PortalUploadStatus[] = ["received", "pending"];
/** Statuses a review may change: the files have landed. */
export const reviewableStatuses: readonly PortalUploadStatus[] = [
  "received",
  "pending",
  "approved",
  "rejected",
];
export const specCheckStatuses = ["not_required", "checking", "passed", "failed"] as const;
export type SpecCheckStatus = (typeof specCheckStatuses)[number];

/** What the public page says of a portal: open, or why it is not. */
export const portalStates = ["open", "paused", "expired", "revoked"] as const;
export type PortalState = (typeof portalStates)[number];
export function portalStateOf(
  p: { status: PortalStatus; expiresAt: number | null },
  now: number,
): PortalState {
  if (p.status === "revoked") return "revoked";
  if (p.expiresAt !== null && p.expiresAt <= now) return "expired";
  return p.status === "paused" ? "paused" : "open";
}

export interface PortalRules {
  allowedExtensions: string[];
  maxFiles: number | null;
  namePattern: string | null;
}

/** `shot.MOV` → `mov`; no dot (or only a leading one): "". */
export function extensionOf(name: string) {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/** A user's `.MOV` or `mov` as the rules keep it. */
export const normalizeExtension = (ext: string) => ext.trim().replace(/^\./, "").toLowerCase();

export interface PortalFileProblem {
  path: string;
  code: "extension_not_allowed" | "name_not_allowed" | "too_large";
  message: string;
}

/**
 * Why one file may not go through a portal, or null. `nameMatches` tests the rule's pattern
 * against the file's name: `name-pattern.ts`'s, passed in so that re2js loads only where a
 * pattern is judged.
 */
export function portalFileProblem(
  rules: PortalRules,
  maxBytesPerUpload: number | null,
  file: { path: string; size: number },
  nameMatches: (pattern: string, name: string) => boolean,
): PortalFileProblem | null {
  const name = baseName(file.path);
  const ext = extensionOf(name);
  if (rules.allowedExtensions.length > 0 && !rules.allowedExtensions.includes(ext))
    return {
      path: file.path,
      code: "extension_not_allowed",
      message: `${name}: only ${rules.allowedExtensions.map((e) => `.${e}`).join(", ")} files are accepted`,
    };
  if (rules.namePattern !== null && !nameMatches(rules.namePattern, name))
    return {
      path: file.path,
      code: "name_not_allowed",
      message: `${name}: the name must match ${rules.namePattern}`,
    };
  if (maxBytesPerUpload !== null && file.size > maxBytesPerUpload)
    return {
      path: file.path,
      code: "too_large",
      message: `${name} is larger than this portal accepts in one upload`,
    };
  return null;
}

export interface PortalUploadProblem {
  code: "too_many_files" | "too_large" | "no_files";
  message: string;
}

/** Rules about the whole upload: how many files, how many bytes in all. */
export function portalUploadProblem(
  rules: PortalRules,
  maxBytesPerUpload: number | null,
  files: readonly { size: number }[],
): PortalUploadProblem | null {
  if (files.length === 0) return { code: "no_files", message: "Choose at least one file" };
  if (rules.maxFiles !== null && files.length > rules.maxFiles)
    return {
      code: "too_many_files",
      message: `At most ${rules.maxFiles} file${rules.maxFiles === 1 ? "" : "s"} per upload (${files.length} chosen)`,
    };
  const bytes = files.reduce((n, f) => n + f.size, 0);
  // Past 2^53 a sum is no longer exact, and the transfer could not declare it.
  if ((maxBytesPerUpload !== null && bytes > maxBytesPerUpload) || !Number.isSafeInteger(bytes))
    return { code: "too_large", message: "These files are more than this portal accepts at once" };
  return null;
}

/**
 * The folder an upload lands in, under the portal's target: the time, who sent it and a short
 * unique tail, so two uploads never share a folder and a reviewer reads the list by date.
 * Characters a name cannot hold become spaces.
 */
export function uploadFolderName(at: number, sender: string | null, uniqueTail: string) {
  const stamp = new Date(at).toISOString().slice(0, 16).replace("T", " ").replace(":", "");
  const who = firstCodePoints(
    (sender ?? "")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: names cannot hold them
      .replace(/[\u0000-\u001f\u007f-\u009f/\\]+/g, " ")
      .trim(),
    80,
  ).trimEnd();
  return `${stamp}${who ? ` ${who}` : ""} ${uniqueTail}`;
}
