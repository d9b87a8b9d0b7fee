import type { z } from "zod";
import type { EventData } from "@/contract/events";
import { namePatternProblem } from "@/contract/name-pattern";
import { PORTAL_LINK_PREFIX } from "@/contract/portal-rules";
import type { createPortalBodySchema, updatePortalBodySchema } from "@/contract/portals";
import { parentOf } from "@/contract/rules";
import type { Caller } from "@/server/http/caller";
import { validationFailed } from "@/server/lib/api-error";
import { toIso } from "@/server/lib/clock";
import { newId, randomBase62 } from "@/server/lib/ids";
import { hashPassword } from "@/server/lib/passwords";
import type { OutgoingMessage } from "@/server/modules/mail/mailer";
import type { PortalChanges, PortalRow } from "./portals.repository";

/*
 * What creating and changing a portal write, as values: the same for SQLite (portals.service.ts)
 * and PostgreSQL (portal-writes.pg.ts), which differ only in how they store them.
 */

const DAY_MS = 86_400_000;

export const portalUrl = (base: string, slug: string) => `${base}${PORTAL_LINK_PREFIX}${slug}`;

export function checkNamePattern(pattern: string | null, field: string) {
  const problem = pattern === null ? null : namePatternProblem(pattern);
  if (problem !== null) throw validationFailed(field, problem, "invalid_pattern");
}

/** `folder` and each of its parents, deepest first: where a file would refuse every commit. */
export function foldersOf(folder: string | null) {
  const out: string[] = [];
  for (let p = folder ?? ""; p !== ""; p = parentOf(p)) out.push(p);
  return out;
}

export const fileInTheWay = (field: string, p: string) =>
  validationFailed(field, `"${p}" is a file, not a folder`, "file_in_the_way");

/** Readable, and unguessable enough with the password and the rate limit: `dailies-in-k3x9p2a7`. */
function newSlug(title: string) {
  const words = title
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  const tail = randomBase62(10).toLowerCase();
  return words ? `${words}-${tail}` : tail;
}

function inviteMail(row: PortalRow, workspaceName: string, link: string) {
  const lines = [
    `${workspaceName} asks you to upload files: "${row.title}".`,
    "",
    ...(row.message ? [row.message, ""] : []),
    `Upload them here: ${link}`,
    ...(row.due_at
      ? ["", `Please send them by ${toIso(row.due_at).replace("T", " ").slice(0, 16)} UTC.`]
      : []),
    ...(row.password_hash ? ["", "The sender of this invitation will give you the password."] : []),
  ];
  return { subject: `${workspaceName}: ${row.title}`, body: lines.join("\n") };
}

/** Before a create's transaction: its name pattern checked and its password hashed. */
export async function createPassword(body: z.output<typeof createPortalBodySchema>) {
  checkNamePattern(body.rules.namePattern, "rules.namePattern");
  return body.password === undefined ? null : await hashPassword(body.password);
}

/** Before a PATCH's transaction: a new pattern checked, a new password hashed (null clears). */
export async function updatePassword(body: z.output<typeof updatePortalBodySchema>) {
  if (body.rules) checkNamePattern(body.rules.namePattern, "rules.namePattern");
  return body.password === undefined || body.password === null
    ? body.password
    : await hashPassword(body.password);
}

/** A new portal's row (the columns with defaults aside), active. */
export function newPortalRow(
  caller: Caller,
  body: z.output<typeof createPortalBodySchema>,
  passwordHash: string | null,
  now: number,
) {
  return {
    id: newId(),
    workspace_id: caller.workspaceId,
    member_id: caller.memberId,
    key_id: caller.keyId,
    slug: newSlug(body.title),
    title: body.title,
    message: body.message ?? null,
    target_path: body.targetPath,
    require_email: body.requireEmail ? 1 : 0,
    password_hash: passwordHash,
    max_bytes_per_upload: body.maxBytesPerUpload ?? null,
    expires_at: body.expiresInDays === undefined ? null : now + body.expiresInDays * DAY_MS,
    notify_on_upload: body.notifyOnUpload ? 1 : 0,
    project_id: body.projectId ?? null,
    due_at: body.dueAt === undefined ? null : Date.parse(body.dueAt),
    fields: JSON.stringify(body.fields),
    rules: JSON.stringify(body.rules),
    spec: body.spec ? JSON.stringify(body.spec) : null,
    approved_path: body.approvedPath ?? null,
    notify_sender: JSON.stringify(body.notifySender),
    invite_emails: JSON.stringify([...new Set(body.inviteEmails)]),
    invite_phones: JSON.stringify([...new Set(body.invitePhones)]),
    status: "active" as const,
    created_at: now,
  } satisfies Omit<
    PortalRow,
    "upload_count" | "bytes_received" | "last_upload_at" | "revoked_at" | "updated_at"
  >;
}

/** The invitations a new portal sends: a mail to each address, a text to each phone. */
export function inviteMessages(row: PortalRow, workspaceName: string, base: string) {
  const link = portalUrl(base, row.slug);
  const mail = inviteMail(row, workspaceName, "{{link}}");
  const common = { workspaceId: row.workspace_id, portalId: row.id, link };
  return [
    ...(JSON.parse(row.invite_emails) as string[]).map(
      (to): OutgoingMessage => ({ ...common, to, ...mail }),
    ),
    ...(JSON.parse(row.invite_phones) as string[]).map(
      (to): OutgoingMessage => ({
        ...common,
        channel: "sms",
        to,
        subject: mail.subject,
        body: `${workspaceName} asks you to upload files: {{link}}`,
      }),
    ),
  ];
}

export const createdEvent = (row: PortalRow): EventData<"portal.created"> => ({
  portalId: row.id,
  slug: row.slug,
  title: row.title,
  targetPath: row.target_path,
});

export function checkChangeable(row: PortalRow) {
  if (row.status === "revoked")
    throw validationFailed("portalId", "A revoked portal cannot be changed", "revoked");
}

/** The columns a PATCH replaces: each member given, none other. */
export function portalChanges(
  body: z.output<typeof updatePortalBodySchema>,
  passwordHash: string | null | undefined,
  now: number,
): PortalChanges {
  const changes: PortalChanges = {};
  if (body.projectId !== undefined) changes.project_id = body.projectId;
  if (body.title !== undefined) changes.title = body.title;
  if (body.message !== undefined) changes.message = body.message;
  if (body.status !== undefined) changes.status = body.status;
  if (body.requireEmail !== undefined) changes.require_email = body.requireEmail ? 1 : 0;
  if (passwordHash !== undefined) changes.password_hash = passwordHash;
  if (body.maxBytesPerUpload !== undefined) changes.max_bytes_per_upload = body.maxBytesPerUpload;
  if (body.expiresInDays !== undefined)
    changes.expires_at = body.expiresInDays === null ? null : now + body.expiresInDays * DAY_MS;
  if (body.notifyOnUpload !== undefined) changes.notify_on_upload = body.notifyOnUpload ? 1 : 0;
  if (body.dueAt !== undefined)
    changes.due_at = body.dueAt === null ? null : Date.parse(body.dueAt);
  if (body.fields !== undefined) changes.fields = JSON.stringify(body.fields);
  if (body.rules !== undefined) changes.rules = JSON.stringify(body.rules);
  if (body.spec !== undefined) changes.spec = body.spec === null ? null : JSON.stringify(body.spec);
  if (body.approvedPath !== undefined) changes.approved_path = body.approvedPath;
  if (body.notifySender) changes.notify_sender = JSON.stringify(body.notifySender);
  return changes;
}
