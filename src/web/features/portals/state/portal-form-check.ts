import type { namePatternProblem as re2PatternProblem } from "@/contract/name-pattern";
import {
  portalBounds as bounds,
  listProblem,
  PHONE_PATTERN,
  PORTAL_EXTENSION_PATTERN,
  PORTAL_FIELD_KEY_PATTERN,
  PORTAL_SPEC_VALUE_PATTERN,
  tooLong,
  wholeIn,
} from "@/contract/portal-rules";
import type { Portal } from "@/contract/portals";
import { EMAIL_MAX, MAX_PATH_LENGTH, pathProblem } from "@/contract/rules";
import type { Problems } from "@/web/lib/use-async-submit";
import {
  type FieldDraft,
  fromLocalInput,
  type PortalDraft,
  type PortalFormField,
  parseEmails,
  parseExtensions,
  parsePhones,
  parseSpecValues,
  sizeToBytes,
  toLocalInput,
  unitBytes,
} from "./portal-draft";

/*
 * The portal form's checks before sending: the contract's bounds (`portalBounds`) and rules,
 * worded for a person typing. The service checks them again with schemas built from the same.
 */

type FormProblems = Problems<PortalFormField>;
/** The contract's name rule (RE2), which the form loads when it opens (re2js is large). */
export type PatternCheck = typeof re2PatternProblem;

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
        : tooLong(f.label.trim(), bounds.fieldLabel),
  }));
}

function fieldsProblem(fields: readonly FieldDraft[]) {
  if (fields.length > bounds.fields.max) return `At most ${bounds.fields.max} fields.`;
  const rows = fieldRowProblems(fields);
  const bad = rows.findIndex((r) => r.key || r.label);
  return bad >= 0 ? `Field ${bad + 1}: ${rows[bad]!.label ?? rows[bad]!.key}` : undefined;
}

/**
 * Why a name rule would be refused: too long, or (once `check`, the service's own rule, has
 * loaded) not RE2. Until it loads, the service judges the pattern and the form shows its answer.
 */
export function namePatternProblem(pattern: string, check: PatternCheck | null) {
  if (pattern === "") return undefined;
  return tooLong(pattern, bounds.namePattern) ?? check?.(pattern) ?? undefined;
}

const pathIssue = (path: string) => {
  if (path === "") return undefined;
  if (path.length > MAX_PATH_LENGTH) return `At most ${MAX_PATH_LENGTH} characters.`;
  const problem = pathProblem(path);
  return problem ? `The path ${problem}.` : undefined;
};

function sizeProblem({ maxSize, maxSizeUnit }: PortalDraft) {
  const bytes = sizeToBytes(maxSize, maxSizeUnit);
  const { min, max } = bounds.maxBytesPerUpload;
  if (bytes === null) return undefined;
  if (Number.isNaN(bytes) || bytes < min) return "A size, like 2 or 1.5, or empty for no limit.";
  const maxInUnit = Math.floor(max / unitBytes[maxSizeUnit]);
  return bytes > max ? `At most ${maxInUnit.toLocaleString()} ${maxSizeUnit}.` : undefined;
}

/** A due date in the future, unless it is the one the portal already has. */
function dueProblem(dueAt: string, now: number, original: Portal | undefined) {
  if (dueAt === "" || (original?.dueAt && toLocalInput(original.dueAt) === dueAt)) return undefined;
  const due = fromLocalInput(dueAt);
  if (due === null) return "Enter a date and time.";
  return new Date(due).getTime() <= now ? "Choose a time in the future." : undefined;
}

function aboutProblems(d: PortalDraft, now: number, original?: Portal): FormProblems {
  const { password, expiresInDays } = bounds;
  return {
    title:
      d.title.trim() === "" ? "Give the portal a title." : tooLong(d.title.trim(), bounds.title),
    message: tooLong(d.message, bounds.message),
    targetPath: original ? undefined : pathIssue(d.targetPath.trim()),
    approvedPath: pathIssue(d.approvedPath.trim()),
    password:
      d.password !== "" &&
      !d.removePassword &&
      (d.password.length < password.min || d.password.length > password.max)
        ? `${password.min} to ${password.max} characters.`
        : undefined,
    expiresInDays:
      d.expiry === "days" && !wholeIn(d.expiresInDays, expiresInDays)
        ? `A whole number of days, ${expiresInDays.min} to ${expiresInDays.max}.`
        : undefined,
    dueAt: dueProblem(d.dueAt, now, original),
    projectId: tooLong(d.projectId.trim(), bounds.projectId),
  };
}

// The same loose shape the service's email check accepts for everyday addresses.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const anEmail = { test: (a: string) => a.length <= EMAIL_MAX && EMAIL.test(a) };

/** Invitations go out only when a portal is created: an edit does not check them. */
function inviteProblems(d: PortalDraft): FormProblems {
  return {
    inviteEmails: listProblem(
      parseEmails(d.inviteEmails),
      anEmail,
      bounds.invites,
      "an email address",
      "addresses",
    ),
    invitePhones: listProblem(
      parsePhones(d.invitePhones),
      PHONE_PATTERN,
      bounds.invites,
      "a number in international form, like +447700900123",
      "numbers",
    ),
  };
}

function ruleProblems(d: PortalDraft, checkPattern: PatternCheck | null): FormProblems {
  const { min, max } = bounds.maxFiles;
  return {
    fields: fieldsProblem(d.fields),
    maxSize: sizeProblem(d),
    allowedExtensions: listProblem(
      parseExtensions(d.allowedExtensions),
      PORTAL_EXTENSION_PATTERN,
      bounds.allowedExtensions,
      "an extension (letters and digits, up to 16)",
    ),
    maxFiles:
      d.maxFiles.trim() === "" || wholeIn(d.maxFiles, bounds.maxFiles)
        ? undefined
        : `Empty for no limit, or ${min} to ${max.toLocaleString()}.`,
    namePattern: namePatternProblem(d.namePattern, checkPattern),
  };
}

function specProblems(d: PortalDraft): FormProblems {
  if (!d.specEnabled) return {};
  const name = d.specName.trim();
  const values = (text: string, what: string) =>
    listProblem(parseSpecValues(text), PORTAL_SPEC_VALUE_PATTERN, bounds.specValues, what);
  return {
    specName:
      name === "" ? "Name the spec, e.g. ProRes 422 HQ in MOV." : tooLong(name, bounds.specName),
    specContainers: values(d.specContainers, "a container name as ffprobe gives it"),
    specVideoCodecs: values(d.specVideoCodecs, "a codec name as ffprobe gives it"),
  };
}

/**
 * The contract's bounds, checked before the request (the service checks them again). `original`
 * is the portal being edited: members only creating sets are not checked then, and a due date
 * already in the past may stay. `checkPattern` is the name rule, once loaded.
 */
export function validatePortalDraft(
  d: PortalDraft,
  now: number,
  original?: Portal,
  checkPattern: PatternCheck | null = null,
): FormProblems {
  return {
    ...aboutProblems(d, now, original),
    ...(original ? {} : inviteProblems(d)),
    ...ruleProblems(d, checkPattern),
    ...specProblems(d),
  };
}
