import { formatBytes } from "@/browser/format";
import type { Estimate } from "@/browser/rate";
import { formatDuration } from "@/browser/rate";
import type { PortalConfirmation, PublicPortal } from "@/contract/portal-public";
import {
  PORTAL_MAX_FILES_MAX,
  type PortalFileProblem,
  type PortalUploadProblem,
  portalFileProblem,
  portalUploadProblem,
} from "@/contract/portal-rules";

/*
 * The portal page's logic without the DOM: what the rules say in words, whether a selection may
 * go, whether the form is filled in, what the service's refusals point at, and the confirmation
 * a sender keeps. Tested on its own (portal-model.test.ts).
 */

type Rules = Pick<PublicPortal, "rules" | "maxBytesPerUpload">;

/** One picked file and its path under the pick (`shots/a.mov` for a folder, `a.mov` alone). */
export interface Picked {
  file: File;
  path: string;
}

/** The page shows these parts of the rules before anyone picks a file. */
export function rulesSummary(p: Rules): string[] {
  const parts: string[] = [];
  const { allowedExtensions, maxFiles, namePattern } = p.rules;
  parts.push(
    allowedExtensions.length > 0
      ? `Accepted: ${allowedExtensions.map((e) => `.${e}`).join(", ")}`
      : "Any type of file",
  );
  if (maxFiles !== null) parts.push(`up to ${maxFiles} file${maxFiles === 1 ? "" : "s"}`);
  if (namePattern !== null) parts.push(`names like ${namePattern}`);
  if (p.maxBytesPerUpload !== null)
    parts.push(`up to ${formatBytes(p.maxBytesPerUpload)} per upload`);
  return parts;
}

/** What the portal's media spec asks of videos, in words; checked by the service once they land. */
export function specSummary(spec: PublicPortal["spec"]): string | null {
  if (!spec) return null;
  const parts = [spec.name];
  if (spec.containers.length > 0) parts.push(`containers: ${spec.containers.join(", ")}`);
  if (spec.videoCodecs.length > 0) parts.push(`video codecs: ${spec.videoCodecs.join(", ")}`);
  return `${parts.join(" · ")} (checked after upload)`;
}

/** Files the operating system leaves in folders; a folder pick does not carry them along. */
export const isSystemFile = (name: string) =>
  name === ".DS_Store" || name === "Thumbs.db" || name === "desktop.ini" || name.startsWith("._");

/**
 * Adds picked files to a selection: a path picked again replaces the earlier file (two files
 * cannot land at one path), and the order stays that of first picking.
 */
export function addPicked(current: readonly Picked[], added: readonly Picked[]): Picked[] {
  const byPath = new Map(current.map((p) => [p.path, p]));
  for (const p of added) byPath.set(p.path, p);
  return [...byPath.values()];
}

export interface SelectionCheck {
  /** Each refused file's reason, by path. */
  files: Map<string, PortalFileProblem>;
  upload: PortalUploadProblem | null;
  bytes: number;
  ok: boolean;
}

/** The selection against the portal's rules, exactly as the service will hold it. */
export function checkSelection(
  p: Rules,
  files: readonly { path: string; size: number }[],
  /** The name pattern's engine (`useNameMatcher`: RE2, as on the service). */
  matches: (pattern: string, name: string) => boolean,
): SelectionCheck {
  const problems = new Map<string, PortalFileProblem>();
  for (const f of files) {
    const problem = portalFileProblem(p.rules, p.maxBytesPerUpload, f, matches);
    if (problem) problems.set(f.path, problem);
  }
  // Without a rule of its own a portal still takes at most what one request may list.
  const rules = { ...p.rules, maxFiles: p.rules.maxFiles ?? PORTAL_MAX_FILES_MAX };
  const upload = portalUploadProblem(rules, p.maxBytesPerUpload, files);
  return {
    files: problems,
    upload,
    bytes: files.reduce((n, f) => n + f.size, 0),
    ok: problems.size === 0 && upload === null,
  };
}

export interface SenderValues {
  name: string;
  email: string;
  message: string;
  fields: Record<string, string>;
}

export const emptySender = (): SenderValues => ({ name: "", email: "", message: "", fields: {} });

/** Form inputs' keys in error maps: the sender's own, and `field:<key>` for a portal's fields. */
export type FormKey = "name" | "email" | "message" | `field:${string}`;

// Loose on purpose: the service has the last word on an address; this catches the typing slips.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What must be fixed before sending, by input, in the form's order. */
export function validateSender(
  p: Pick<PublicPortal, "requireEmail" | "fields">,
  v: SenderValues,
): Map<FormKey, string> {
  const errors = new Map<FormKey, string>();
  const email = v.email.trim();
  if (!email && p.requireEmail) errors.set("email", "Enter your email address");
  else if (email && !EMAIL_SHAPE.test(email))
    errors.set("email", "Enter an email address like name@example.com");
  for (const f of p.fields)
    if (f.required && !(v.fields[f.key] ?? "").trim()) errors.set(`field:${f.key}`, "Required");
  return errors;
}

/** The request that starts the upload; empty optional inputs are left out, not sent blank. */
export function uploadBody(v: SenderValues, files: readonly { path: string; size: number }[]) {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(v.fields)) if (value.trim()) fields[key] = value.trim();
  return {
    ...(v.email.trim() ? { senderEmail: v.email.trim() } : {}),
    ...(v.name.trim() ? { senderName: v.name.trim() } : {}),
    ...(v.message.trim() ? { message: v.message } : {}),
    fields,
    files: files.map((f) => ({ path: f.path, size: f.size })),
  };
}

export interface Issue {
  field: string;
  message: string;
  code: string;
}

export interface PlacedIssues {
  form: Map<FormKey, string>;
  files: Map<string, string>;
  other: string[];
}

/**
 * The service's refusal, each issue put beside what it is about: `senderEmail` by the email
 * input, `fields.<key>` by that field, `files.<n>…` by the n-th file sent; anything else above
 * the Upload button.
 */
export function placeIssues(issues: readonly Issue[], sent: readonly { path: string }[]) {
  const placed: PlacedIssues = { form: new Map(), files: new Map(), other: [] };
  for (const issue of issues) {
    const [head, second] = issue.field.split(".");
    if (head === "senderEmail" || issue.code === "email_required")
      placed.form.set("email", issue.message);
    else if (head === "senderName") placed.form.set("name", issue.message);
    else if (head === "message") placed.form.set("message", issue.message);
    else if (head === "fields" && second) placed.form.set(`field:${second}`, issue.message);
    else if (head === "files" && second !== undefined && sent[Number(second)])
      placed.files.set(sent[Number(second)]!.path, issue.message);
    else placed.other.push(issue.message);
  }
  return placed;
}

/** "12.5 MB/s · about 3 min 20 s left", or "" before the rate is known. */
export function rateText({ rate, etaSeconds }: Estimate): string {
  if (rate === null) return "";
  const left = etaSeconds ? ` · about ${formatDuration(etaSeconds)} left` : "";
  return `${formatBytes(rate)}/s${left}`;
}

/** Whether the bytes that landed are the ones this browser read: null when it did not hash. */
export function verdictOf(local: string | null | undefined, received: string): boolean | null {
  return local ? local.toLowerCase() === received.toLowerCase() : null;
}

/** The confirmation as plain text, the file a sender saves and keeps. */
export function confirmationText(
  c: PortalConfirmation,
  localHashes: Readonly<Record<string, string>> = {},
  formatTime: (iso: string) => string = (iso) => iso,
): string {
  const lines = [
    `Upload confirmation: ${c.portalTitle}`,
    "",
    `Reference:   ${c.reference}`,
    `Sent to:     ${c.workspaceName}`,
    `Received:    ${formatTime(c.completedAt)} (${c.completedAt})`,
    ...(c.senderEmail ? [`From:        ${c.senderEmail}`] : []),
    `Files:       ${c.fileCount} (${formatBytes(c.bytes)}, ${c.bytes} bytes)`,
    "",
  ];
  for (const f of c.files) {
    const verdict = verdictOf(localHashes[f.path], f.sha256);
    lines.push(f.path, `  ${f.size} bytes (${formatBytes(f.size)})`, `  SHA-256 ${f.sha256}`);
    if (verdict !== null)
      lines.push(
        verdict
          ? "  Matches the file this browser sent"
          : "  Differs from the file this browser read: send it again",
      );
  }
  if (c.files.length < c.fileCount) lines.push(`… and ${c.fileCount - c.files.length} more files`);
  return `${lines.join("\n")}\n`;
}

/** `upload-confirmation-K7Q2X9.txt`: the reference names the file, without unsafe characters. */
export const confirmationFileName = (c: Pick<PortalConfirmation, "reference">) =>
  `upload-confirmation-${c.reference.replace(/[^A-Za-z0-9._-]+/g, "-")}.txt`;

export interface Fingerprint {
  path: string;
  size: number;
  lastModified: number;
}

/**
 * A file picked again after a reload is matched to the one the upload declared: the same size
 * and modification time (a file changed since would corrupt the bytes already sent), and the
 * same path, or one the end of the other when picked from another folder level.
 */
export function matchesDeclared(declared: Fingerprint, picked: Fingerprint) {
  if (declared.size !== picked.size || declared.lastModified !== picked.lastModified) return false;
  return (
    declared.path === picked.path ||
    declared.path.endsWith(`/${picked.path}`) ||
    picked.path.endsWith(`/${declared.path}`)
  );
}
