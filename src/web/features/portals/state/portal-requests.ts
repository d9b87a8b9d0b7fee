import { ApiError } from "@/browser/api-error";
import type { FieldIssue } from "@/contract/common";
import type { CreatePortalBody, Portal, UpdatePortalBody } from "@/contract/portals";
import {
  fromLocalInput,
  type PortalDraft,
  type PortalFormField,
  parseEmails,
  parseExtensions,
  parsePhones,
  parseSpecValues,
  portalFormFields,
  sizeToBytes,
  toLocalInput,
} from "./portal-draft";

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
    notifySender: d.notifySender,
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
  if (!same(d.notifySender, p.notifySender)) body.notifySender = d.notifySender;
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
