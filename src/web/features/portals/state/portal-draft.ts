import { NOTIFY_SENDER_DEFAULT, normalizeExtension } from "@/contract/portal-rules";
import type { Portal } from "@/contract/portals";

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
  /** Which decisions mail the sender. */
  notifySender: { approved: boolean; rejected: boolean };
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

export const unitBytes: Record<SizeUnit, number> = { MB: 1e6, GB: 1e9 };

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
    notifySender: { ...NOTIFY_SENDER_DEFAULT },
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
    notifySender: p.notifySender,
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
