import type { Scope } from "./rules";

/*
 * The needs-attention summary's bounds and which scopes show each section (zod-free: the
 * console names the same windows in its wording).
 */

/** The entries each section lists by default, and at most (`limit`); its `total` counts all. */
export const ATTENTION_LIMIT_DEFAULT = 5;
export const ATTENTION_LIMIT_MAX = 50;

/** A share expiring within this many hours that nobody has opened needs attention. */
export const EXPIRING_WITHIN_HOURS = 48;

/**
 * A failed job is listed this many days after it ended: jobs have no dismissal, so the window
 * is what takes one off the list.
 */
export const FAILED_JOBS_DAYS = 7;

export const attentionSections = [
  "uploads",
  "failedDownloads",
  "expiringShares",
  "disabledEndpoints",
  "failedJobs",
] as const;
export type AttentionSection = (typeof attentionSections)[number];

/**
 * The scopes that show each section: the ones that read what it lists (the review queue, a
 * share's receipt and list, the webhook endpoints, the job centre). A section the key may not
 * read is left out of the answer, not answered empty.
 */
export const attentionSectionScopes: Record<AttentionSection, readonly Scope[]> = {
  uploads: ["portals:write", "receipts:read"],
  failedDownloads: ["shares:write", "receipts:read"],
  expiringShares: ["shares:write", "receipts:read"],
  disabledEndpoints: ["webhooks:manage"],
  failedJobs: ["files:read"],
};

/** Every scope that shows at least one section: the operation's own scopes. */
export const attentionScopes: readonly Scope[] = [
  ...new Set(Object.values(attentionSectionScopes).flat()),
];
