import { ApiError } from "@/browser/api-error";
import type { FieldIssue } from "@/contract/common";
import {
  normalizeExtension,
  PHONE_PATTERN,
  PORTAL_EXPIRES_DAYS_MAX,
  PORTAL_EXTENSION_PATTERN,
  PORTAL_EXTENSIONS_MAX,
  PORTAL_FIELD_KEY_PATTERN,
  PORTAL_FIELD_LABEL_MAX,
  PORTAL_FIELDS_MAX,
  PORTAL_INVITES_MAX,
  PORTAL_MAX_BYTES_MAX,
  PORTAL_MAX_FILES_MAX,
  PORTAL_MESSAGE_MAX,
  PORTAL_NAME_PATTERN_MAX,
  PORTAL_PASSWORD_MAX,
  PORTAL_PASSWORD_MIN,
  PORTAL_PROJECT_ID_MAX,
  PORTAL_SPEC_NAME_MAX,
  PORTAL_SPEC_VALUE_PATTERN,
  PORTAL_SPEC_VALUES_MAX,
  PORTAL_TITLE_MAX,
} from "@/contract/portal-rules";
import type { CreatePortalBody, Portal, UpdatePortalBody } from "@/contract/portals";
import { EMAIL_MAX, MAX_PATH_LENGTH, pathProblem } from "@/contract/rules";
import type { Problems } from "@/web/lib/use-async-submit";

/** One custom field as the editor holds it. */
export interface FieldDraft {
  /** The editor's own, for React: keys repeat and change while typed. */
  id: number;
  key: string;
  label: string;
  required: boolean;
  /** The key was typed by hand: it no longer follows the label. */
  keyEdited: boolean;
}

export type SizeUnit = "MB" | "GB";
/** `keep` exists only when editing: leave the expiry as it is. */
export type ExpiryChoice = "keep" | "never" | "days";

/** The form as typed: strings where a person types, so a half-typed value is never lost. */
export interface PortalDraft {
  title: string;
  message: string;
  targetPath: string;
  requireEmail: boolean;
  /** Empty: no password (create) or unchanged (edit). */
  password: string;
  removePassword: boolean;
  /** Empty: no limit. */
  maxSize: string;
  maxSizeUnit: SizeUnit;
  expiry: ExpiryChoice;
  expiresInDays: string;
  notifyOnUpload: boolean;
  projectId: string;
  /** An `<input type="datetime-local">` value (local time), or empty. */
  dueAt: string;
  /** Addresses separated by commas, semicolons, spaces or lines. */
  inviteEmails: string;
  invitePhones: string;
  fields: FieldDraft[];
  /** `mov, .MP4 mxf`: dots and case do not matter. */
  allowedExtensions: string;
  maxFiles: string;
  namePattern: string;
  specEnabled: boolean;
  specName: string;
  specContainers: string;
  specVideoCodecs: string;
  approvedPath: string;
}

export const portalFormFields = [
  "title",
  "message",
  "targetPath",
  "password",
  "maxSize",
  "expiresInDays",
  "projectId",
  "dueAt",
  "inviteEmails",
  "invitePhones",
  "fields",
  "allowedExtensions",
  "maxFiles",
  "namePattern",
  "specName",
  "specContainers",
  "specVideoCodecs",
  "approvedPath",
] as const;
export type PortalFormField = (typeof portalFormFields)[number];

const unitBytes: Record<SizeUnit, number> = { MB: 1e6, GB: 1e9 };

let lastFieldId = 0;
export const newFieldDraft = (field?: { key: string; label: string; required: boolean }) =>
  ({
    id: ++lastFieldId,
    key: field?.key ?? "",
    label: field?.label ?? "",
    required: field?.required ?? false,
    keyEdited: field !== undefined,
  }) satisfies FieldDraft;

export function emptyPortalDraft(): PortalDraft {
  return {
    title: "",
    message: "",
    targetPath: "",
    requireEmail: false,
    password: "",
    removePassword: false,
    maxSize: "",
    maxSizeUnit: "GB",
    expiry: "never",
    expiresInDays: "30",
    notifyOnUpload: false,
    projectId: "",
    dueAt: "",
    inviteEmails: "",
    invitePhones: "",
    fields: [],
    allowedExtensions: "",
    maxFiles: "",
    namePattern: "",
    specEnabled: false,
    specName: "",
    specContainers: "",
    specVideoCodecs: "",
    approvedPath: "",
  };
}

/** Decimal units, as `formatBytes` shows sizes everywhere else in the console. */
export function sizeToBytes(value: string, unit: SizeUnit): number | null {
  const text = value.trim();
  if (text === "") return null;
  if (!/^\d+(\.\d+)?$/.test(text)) return Number.NaN;
  return Math.round(Number(text) * unitBytes[unit]);
}

/** The largest unit that shows the size exactly, so reopening the form changes nothing. */
export function bytesToSize(bytes: number): { value: string; unit: SizeUnit } {
  if (bytes % unitBytes.GB === 0) return { value: String(bytes / unitBytes.GB), unit: "GB" };
  return { value: String(bytes / unitBytes.MB), unit: "MB" };
}

const pad = (n: number) => String(n).padStart(2, "0");

/** An ISO time as a datetime-local value, to the minute, in this browser's time zone. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (read as local time) as an ISO time, or null when it is not one. */
export function fromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** Words separated by commas, semicolons, spaces or lines, each once, in the order typed. */
export function parseList(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).filter(Boolean))];
}

export const parseEmails = (text: string) => parseList(text.toLowerCase());

/** `+44 20 7946-0958` → `+442079460958`: people type numbers with spaces and punctuation. */
export function parsePhones(text: string): string[] {
  const numbers = text
    .split(/[\n,;]+/)
    .map((p) => p.replace(/[\s().-]/g, ""))
    .filter(Boolean);
  return [...new Set(numbers)];
}

export const parseExtensions = (text: string) => [
  ...new Set(parseList(text).map(normalizeExtension).filter(Boolean)),
];
export const parseSpecValues = (text: string) => parseList(text.toLowerCase());

/** A key made from a label, for fields whose key was not typed: "Shot number" → `shot_number`. */
export function keyFromLabel(label: string): string {
  const key = label
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^[^a-z]+/, "")
    .replace(/_+$/, "")
    .slice(0, 40)
    .replace(/_+$/, "");
  return key;
}

/** What is wrong with each custom field's key and label (same order as the fields). */
export function fieldRowProblems(
  fields: readonly FieldDraft[],
): { key?: string; label?: string }[] {
  const seen = new Map<string, number>();
  for (const f of fields) seen.set(f.key, (seen.get(f.key) ?? 0) + 1);
  return fields.map((f) => ({
    key: !PORTAL_FIELD_KEY_PATTERN.test(f.key)
      ? "A lowercase letter, then letters, digits or _ (at most 40)."
      : (seen.get(f.key) ?? 0) > 1
        ? "Another field has this key."
        : undefined,
    label:
      f.label.trim() === ""
        ? "Give the field a label."
        : f.label.trim().length > PORTAL_FIELD_LABEL_MAX
          ? `At most ${PORTAL_FIELD_LABEL_MAX} characters.`
          : undefined,
  }));
}

// The same loose shape the service's email check accepts for everyday addresses.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const wholeIn = (text: string, min: number, max: number) => {
  const n = Number(text.trim());
  return /^\d+$/.test(text.trim()) && n >= min && n <= max;
};

const pathIssue = (path: string) => {
  if (path === "") return undefined;
  if (path.length > MAX_PATH_LENGTH) return `At most ${MAX_PATH_LENGTH} characters.`;
  const problem = pathProblem(path);
  return problem ? `The path ${problem}.` : undefined;
};

/**
 * Why a name rule would be refused. The service runs it with RE2, which has neither look-arounds
 * nor back-references; the browser's RegExp catches every other syntax error before sending.
 */
export function namePatternProblem(pattern: string): string | undefined {
  if (pattern === "") return undefined;
  if (pattern.length > PORTAL_NAME_PATTERN_MAX)
    return `At most ${PORTAL_NAME_PATTERN_MAX} characters.`;
  if (/\(\?<?[=!]/.test(pattern) || /\\[1-9]/.test(pattern))
    return "Look-arounds and back-references are not supported (RE2 syntax).";
  try {
    new RegExp(pattern);
  } catch {
    return "This is not a valid regular expression.";
  }
  return undefined;
}

const listProblem = (
  values: string[],
  pattern: RegExp,
  max: number,
  what: string,
): string | undefined => {
  const bad = values.find((v) => !pattern.test(v));
  if (bad !== undefined) return `“${bad}” is not ${what}.`;
  return values.length > max ? `At most ${max}.` : undefined;
};

/**
 * The contract's bounds, checked before the request (the service checks them again). `original`
 * is the portal being edited: members only creating sets are not checked then, and a due date
 * already in the past may stay.
 */
export function validatePortalDraft(
  d: PortalDraft,
  now: number,
  original?: Portal,
): Problems<PortalFormField> {
  const creating = original === undefined;
  const title = d.title.trim();
  const bytes = sizeToBytes(d.maxSize, d.maxSizeUnit);
  const maxInUnit = Math.floor(PORTAL_MAX_BYTES_MAX / unitBytes[d.maxSizeUnit]);
  const emails = parseEmails(d.inviteEmails);
  const badEmail = emails.find((a) => a.length > EMAIL_MAX || !EMAIL.test(a));
  const phones = parsePhones(d.invitePhones);
  const badPhone = phones.find((p) => !PHONE_PATTERN.test(p));
  const due = d.dueAt === "" ? null : fromLocalInput(d.dueAt);
  const dueUnchanged =
    !creating && original.dueAt !== null && toLocalInput(original.dueAt) === d.dueAt;
  const rows = fieldRowProblems(d.fields);
  const badRow = rows.findIndex((r) => r.key || r.label);
  const specContainers = parseSpecValues(d.specContainers);
  const specCodecs = parseSpecValues(d.specVideoCodecs);
  return {
    title:
      title === ""
        ? "Give the portal a title."
        : title.length > PORTAL_TITLE_MAX
          ? `At most ${PORTAL_TITLE_MAX} characters.`
          : undefined,
    message:
      d.message.length > PORTAL_MESSAGE_MAX
        ? `At most ${PORTAL_MESSAGE_MAX} characters.`
        : undefined,
    targetPath: creating ? pathIssue(d.targetPath.trim()) : undefined,
    password:
      d.password !== "" &&
      !d.removePassword &&
      (d.password.length < PORTAL_PASSWORD_MIN || d.password.length > PORTAL_PASSWORD_MAX)
        ? `${PORTAL_PASSWORD_MIN} to ${PORTAL_PASSWORD_MAX} characters.`
        : undefined,
    maxSize:
      bytes === null
        ? undefined
        : Number.isNaN(bytes) || bytes < 1
          ? "A size, like 2 or 1.5, or empty for no limit."
          : bytes > PORTAL_MAX_BYTES_MAX
            ? `At most ${maxInUnit.toLocaleString()} ${d.maxSizeUnit}.`
            : undefined,
    expiresInDays:
      d.expiry === "days" && !wholeIn(d.expiresInDays, 1, PORTAL_EXPIRES_DAYS_MAX)
        ? `A whole number of days, 1 to ${PORTAL_EXPIRES_DAYS_MAX}.`
        : undefined,
    projectId:
      d.projectId.trim().length > PORTAL_PROJECT_ID_MAX
        ? `At most ${PORTAL_PROJECT_ID_MAX} characters.`
        : undefined,
    dueAt:
      d.dueAt === "" || dueUnchanged
        ? undefined
        : due === null
          ? "Enter a date and time."
          : new Date(due).getTime() <= now
            ? "Choose a time in the future."
            : undefined,
    inviteEmails: !creating
      ? undefined
      : badEmail !== undefined
        ? `“${badEmail}” is not an email address.`
        : emails.length > PORTAL_INVITES_MAX
          ? `At most ${PORTAL_INVITES_MAX} addresses.`
          : undefined,
    invitePhones: !creating
      ? undefined
      : badPhone !== undefined
        ? `“${badPhone}” is not a number in international form, like +447700900123.`
        : phones.length > PORTAL_INVITES_MAX
          ? `At most ${PORTAL_INVITES_MAX} numbers.`
          : undefined,
    fields:
      d.fields.length > PORTAL_FIELDS_MAX
        ? `At most ${PORTAL_FIELDS_MAX} fields.`
        : badRow >= 0
          ? `Field ${badRow + 1}: ${rows[badRow]!.label ?? rows[badRow]!.key}`
          : undefined,
    allowedExtensions: listProblem(
      parseExtensions(d.allowedExtensions),
      PORTAL_EXTENSION_PATTERN,
      PORTAL_EXTENSIONS_MAX,
      "an extension (letters and digits, up to 16)",
    ),
    maxFiles:
      d.maxFiles.trim() === "" || wholeIn(d.maxFiles, 1, PORTAL_MAX_FILES_MAX)
        ? undefined
        : `Empty for no limit, or 1 to ${PORTAL_MAX_FILES_MAX.toLocaleString()}.`,
    namePattern: namePatternProblem(d.namePattern),
    specName: !d.specEnabled
      ? undefined
      : d.specName.trim() === ""
        ? "Name the spec, e.g. ProRes 422 HQ in MOV."
        : d.specName.trim().length > PORTAL_SPEC_NAME_MAX
          ? `At most ${PORTAL_SPEC_NAME_MAX} characters.`
          : undefined,
    specContainers: d.specEnabled
      ? listProblem(
          specContainers,
          PORTAL_SPEC_VALUE_PATTERN,
          PORTAL_SPEC_VALUES_MAX,
          "a container name as ffprobe gives it",
        )
      : undefined,
    specVideoCodecs: d.specEnabled
      ? listProblem(
          specCodecs,
          PORTAL_SPEC_VALUE_PATTERN,
          PORTAL_SPEC_VALUES_MAX,
          "a codec name as ffprobe gives it",
        )
      : undefined,
    approvedPath: pathIssue(d.approvedPath.trim()),
  };
}

const fieldsOf = (d: PortalDraft) =>
  d.fields.map((f) => ({ key: f.key, label: f.label.trim(), required: f.required }));

const rulesOf = (d: PortalDraft) => ({
  allowedExtensions: parseExtensions(d.allowedExtensions),
  maxFiles: d.maxFiles.trim() === "" ? null : Number(d.maxFiles),
  namePattern: d.namePattern === "" ? null : d.namePattern,
});

const specOf = (d: PortalDraft) =>
  d.specEnabled
    ? {
        name: d.specName.trim(),
        containers: parseSpecValues(d.specContainers),
        videoCodecs: parseSpecValues(d.specVideoCodecs),
      }
    : null;

/** The create request for a valid draft; optional members left out when empty. */
export function createPortalBody(d: PortalDraft): CreatePortalBody {
  const rules = rulesOf(d);
  const spec = specOf(d);
  return {
    title: d.title.trim(),
    message: d.message.trim() || undefined,
    targetPath: d.targetPath.trim(),
    requireEmail: d.requireEmail,
    password: d.password === "" ? undefined : d.password,
    maxBytesPerUpload: sizeToBytes(d.maxSize, d.maxSizeUnit) ?? undefined,
    expiresInDays: d.expiry === "days" ? Number(d.expiresInDays) : undefined,
    notifyOnUpload: d.notifyOnUpload,
    projectId: d.projectId.trim() || undefined,
    dueAt: d.dueAt === "" ? undefined : (fromLocalInput(d.dueAt) ?? undefined),
    inviteEmails: parseEmails(d.inviteEmails),
    invitePhones: parsePhones(d.invitePhones),
    fields: fieldsOf(d),
    rules,
    spec: spec ?? undefined,
    // null, not left out: the service reads an absent approvedPath as "" (the workspace root).
    approvedPath: d.approvedPath.trim() || null,
  };
}

/** The form filled from a portal, for editing. */
export function draftFromPortal(p: Portal): PortalDraft {
  const size = p.maxBytesPerUpload === null ? null : bytesToSize(p.maxBytesPerUpload);
  return {
    ...emptyPortalDraft(),
    title: p.title,
    message: p.message ?? "",
    targetPath: p.targetPath,
    requireEmail: p.requireEmail,
    maxSize: size?.value ?? "",
    maxSizeUnit: size?.unit ?? "GB",
    expiry: "keep",
    notifyOnUpload: p.notifyOnUpload,
    projectId: p.projectId ?? "",
    dueAt: p.dueAt ? toLocalInput(p.dueAt) : "",
    fields: p.fields.map(newFieldDraft),
    allowedExtensions: p.rules.allowedExtensions.join(", "),
    maxFiles: p.rules.maxFiles === null ? "" : String(p.rules.maxFiles),
    namePattern: p.rules.namePattern ?? "",
    specEnabled: p.spec !== null,
    specName: p.spec?.name ?? "",
    specContainers: p.spec?.containers.join(", ") ?? "",
    specVideoCodecs: p.spec?.videoCodecs.join(", ") ?? "",
    approvedPath: p.approvedPath ?? "",
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The update request for a valid draft: only the members that changed, so an edit never
 * rewrites what another reviewer changed meanwhile in a part of the form this one left alone.
 */
export function updatePortalBody(d: PortalDraft, p: Portal): UpdatePortalBody {
  const body: UpdatePortalBody = {};
  const title = d.title.trim();
  if (title !== p.title) body.title = title;
  const message = d.message.trim() || null;
  if (message !== (p.message?.trim() || null)) body.message = message;
  if (d.requireEmail !== p.requireEmail) body.requireEmail = d.requireEmail;
  if (d.notifyOnUpload !== p.notifyOnUpload) body.notifyOnUpload = d.notifyOnUpload;
  if (d.removePassword && p.hasPassword) body.password = null;
  else if (d.password !== "") body.password = d.password;
  const bytes = sizeToBytes(d.maxSize, d.maxSizeUnit);
  if (bytes !== p.maxBytesPerUpload) body.maxBytesPerUpload = bytes;
  if (d.expiry === "days") body.expiresInDays = Number(d.expiresInDays);
  else if (d.expiry === "never" && p.expiresAt !== null) body.expiresInDays = null;
  const projectId = d.projectId.trim() || null;
  if (projectId !== p.projectId) body.projectId = projectId;
  const dueAt = d.dueAt === "" ? null : fromLocalInput(d.dueAt);
  if (d.dueAt !== (p.dueAt ? toLocalInput(p.dueAt) : "")) body.dueAt = dueAt;
  const fields = fieldsOf(d);
  if (
    !same(
      fields,
      p.fields.map(({ key, label, required }) => ({ key, label, required })),
    )
  )
    body.fields = fields;
  const rules = rulesOf(d);
  const { allowedExtensions, maxFiles, namePattern } = p.rules;
  if (!same(rules, { allowedExtensions, maxFiles, namePattern })) body.rules = rules;
  const spec = specOf(d);
  const was = p.spec && {
    name: p.spec.name,
    containers: p.spec.containers,
    videoCodecs: p.spec.videoCodecs,
  };
  if (!same(spec, was)) body.spec = spec;
  const approvedPath = d.approvedPath.trim() || null;
  if (approvedPath !== p.approvedPath) body.approvedPath = approvedPath;
  return body;
}

/** Where the service's issue paths (`rules.allowedExtensions.2`) show in this form. */
const issueTargets: Record<string, PortalFormField> = {
  maxBytesPerUpload: "maxSize",
  rules: "allowedExtensions",
  "rules.allowedExtensions": "allowedExtensions",
  "rules.maxFiles": "maxFiles",
  "rules.namePattern": "namePattern",
  spec: "specName",
  "spec.name": "specName",
  "spec.containers": "specContainers",
  "spec.videoCodecs": "specVideoCodecs",
};
const shown = new Set<string>(portalFormFields);

/** The form field a service issue belongs to, or null for one no field shows. */
export function formFieldOfIssue(field: string): PortalFormField | null {
  const parts = field
    .split(".")
    .filter((p) => p !== "" && !/^\d+$/.test(p))
    .filter((p, i) => !(i === 0 && p === "body"));
  const two = parts.slice(0, 2).join(".");
  const one = parts[0] ?? "";
  const target = issueTargets[two] ?? issueTargets[one] ?? one;
  return shown.has(target) ? (target as PortalFormField) : null;
}

/**
 * The service's refusal with its issues renamed to this form's fields, so `useAsyncSubmit`
 * puts each message beside the control it concerns.
 */
export function withFormFields(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.fieldIssues.length === 0) return error;
  const issues: FieldIssue[] = error.fieldIssues.map((issue) => ({
    ...issue,
    field: formFieldOfIssue(issue.field) ?? issue.field,
  }));
  return new ApiError(
    error.status,
    error.code,
    error.message,
    { ...error.details, issues },
    error.requestId,
  );
}
