import { z } from "zod";
import {
  isWellFormedText,
  MAX_NAME_LENGTH,
  MAX_PATH_LENGTH,
  nameProblem,
  normalizeName,
  pathProblem,
  type Scope,
  scopes,
} from "./rules";

export { pathProblem, type Scope, scopes };

export const scopeSchema = z.enum(scopes).meta({ id: "Scope" });

export const errorCodes = [
  "validation_failed",
  "path_rejected",
  "authorization_pending",
  "slow_down",
  "access_denied",
  "expired_token",
  "unauthenticated",
  "email_unverified",
  "mfa_required",
  "forbidden",
  "plan_limit",
  "not_found",
  "rate_limited",
  "node_busy",
  "insufficient_storage",
  "internal_error",
  // Extension: 409, the request is sound but what it would change has moved on (an approval's
  // undo whose folder's old place is taken).
  "conflict",
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/**
 * One offending input of a `validation_failed` or `path_rejected` error: where it is
 * (`field`, dotted, prefixed with its location when not the body) and why.
 */
export const fieldIssueSchema = z
  .object({
    field: z.string(),
    message: z.string(),
    code: z.string(),
  })
  .meta({ id: "FieldIssue" });
export type FieldIssue = z.infer<typeof fieldIssueSchema>;

export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: `One of: ${errorCodes.join(", ")}` }),
      message: z.string(),
      details: z
        .record(z.string(), z.unknown())
        .nullable()
        .meta({ description: "Structured context; see docs/api-decisions.md for each code." }),
    }),
  })
  .meta({ id: "Error" });
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export const okSchema = z.object({ ok: z.boolean() }).meta({ id: "Ok" });
export type Ok = z.infer<typeof okSchema>;

export const dateTime = () => z.iso.datetime({ offset: true });

/** Text the service trims and then wants not empty: the document says so with a pattern. */
export const trimmedText = (max: number) =>
  z.string().trim().min(1).max(max).meta({ pattern: "\\S" });

/** A count or a size in bytes: a whole number, never negative. */
export const count = () => z.int().min(0);

/** The issue param that turns a validation failure into 400 `path_rejected`. */
export const PATH_REJECTED = "path_rejected";

/*
 * `pathProblem` and `nameProblem` as JSON Schema patterns, for the document: a segment (a name)
 * has 1 to 255 characters, none of them `/`, `\`, a control character or a lone surrogate, and
 * is not `.` or `..` (written without lookahead: it starts with no dot, with one dot and then
 * something else, or with two dots and then anything).
 */
const SEGMENT_CHAR = String.raw`/\\\u0000-\u001f\u007f-\u009f\uD800-\uDFFF`;
const SEGMENT = `(?:[^.${SEGMENT_CHAR}][^${SEGMENT_CHAR}]{0,${MAX_NAME_LENGTH - 1}}|\\.[^.${SEGMENT_CHAR}][^${SEGMENT_CHAR}]{0,${MAX_NAME_LENGTH - 2}}|\\.\\.[^${SEGMENT_CHAR}]{1,${MAX_NAME_LENGTH - 2}})`;
export const PATH_PATTERN = `^${SEGMENT}(?:/${SEGMENT})*$`;
export const NAME_PATTERN = `^${SEGMENT}$`;
const PATH_RULES =
  "Relative to the workspace root: names joined by `/`, none empty, `.` or `..`, each at most 255 characters and without `\\`, control characters or lone surrogates (`path_rejected`). Compared and stored in Unicode NFC; the length bound holds after normalising too.";

/**
 * A path as the service stores it: in NFC (see `normalizeName`), then held to the path rules,
 * the length bound among them again, since normalising can lengthen a string.
 */
const pathSchema = (min: 0 | 1) =>
  z
    .string()
    .min(min)
    .max(MAX_PATH_LENGTH)
    .meta({
      pattern: min === 0 ? `^$|${PATH_PATTERN}` : PATH_PATTERN,
      description: min === 0 ? `Empty: the workspace root. ${PATH_RULES}` : PATH_RULES,
    })
    .transform(normalizeName)
    .superRefine((value, ctx) => {
      const problem = pathProblem(value);
      if (problem)
        ctx.addIssue({
          code: "custom",
          message: `Path ${problem}`,
          params: { code: PATH_REJECTED },
        });
    });

/** A path where empty means the workspace root (spec: max 4096, default empty). */
export const optionalPathSchema = pathSchema(0).default("");
/** A path that must name something (spec: 1 to 4096). */
export const requiredPathSchema = pathSchema(1);

/**
 * A single name inside a folder: no `/`, at most 255 characters (spec rename bounds), in NFC.
 * A name that is not well-formed Unicode is `path_rejected` like such a path; the other rules
 * are `validation_failed`.
 */
export const nameSchema = z
  .string()
  .min(1)
  .max(MAX_NAME_LENGTH)
  .meta({
    pattern: NAME_PATTERN,
    description:
      "A name inside a folder: not `.` or `..`, without `/`, `\\`, control characters or lone surrogates; compared in Unicode NFC",
  })
  .transform(normalizeName)
  .superRefine((value, ctx) => {
    const problem = nameProblem(value);
    if (problem)
      ctx.addIssue({
        code: "custom",
        message: problem,
        ...(isWellFormedText(value) ? {} : { params: { code: PATH_REJECTED } }),
      });
  });

/** Ids are lowercase alphanumeric, sortable by creation time (see lib/ids on the server). */
export const idSchema = z.string().regex(/^[a-z0-9]{10,40}$/);

/**
 * A query-string integer from `min` to `max`, written in decimal digits only: `Number()` alone
 * (and so `z.coerce`) also reads `0x10`, `1e3`, ` 5`, `+5` and `5.0`, so one value would have
 * many spellings and a cache or log keyed on the query string would see them as different.
 */
export function queryInteger(min: number, max?: number) {
  const int = z.int({ error: "Expected a whole number in decimal digits" }).min(min);
  return z.preprocess(
    (value) => (typeof value === "string" && /^[0-9]+$/.test(value) ? Number(value) : value),
    max === undefined ? int : int.max(max),
  );
}

/** Query-string booleans as the spec writes them (`1` or `true`). */
export const queryBoolean = z
  .enum(["1", "0", "true", "false"])
  .transform((v) => v === "1" || v === "true");

/** `details` of 400 `validation_failed` and `path_rejected`. */
export const validationDetailsSchema = z.object({ issues: z.array(fieldIssueSchema) });
/** `details` of 401 `unauthenticated`: why the credential was refused. */
export const unauthenticatedDetailsSchema = z.object({
  reason: z.enum(["missing", "malformed", "unknown", "expired", "revoked", "creator_removed"]),
});
/** `details` of 403 `forbidden`: the scopes any one of which would allow the call, or the workspace mismatch. */
export const forbiddenDetailsSchema = z.object({
  reason: z.enum(["missing_scope", "workspace_mismatch"]),
  requiredScopes: z.array(scopeSchema).optional(),
  keyScopes: z.array(scopeSchema).optional(),
});
/** `details` of 429 `rate_limited`. */
export const rateLimitedDetailsSchema = z.object({
  retryAfterSeconds: z.number().int(),
  limit: z.number().int(),
  windowSeconds: z.number().int(),
});
