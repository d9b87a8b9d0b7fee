import {
  EMAIL_MAX,
  SHARE_EXPIRES_DAYS_MAX,
  SHARE_MAX_DOWNLOADS_MAX,
  SHARE_MESSAGE_MAX,
  SHARE_PASSWORD_MAX,
  SHARE_PASSWORD_MIN,
  SHARE_RECIPIENTS_MAX,
  SHARE_TITLE_MAX,
} from "@/contract/rules";
import type { CreateShareBody } from "@/contract/shares";
import type { Problems } from "@/web/lib/use-async-submit";

export interface ShareDraft {
  title: string;
  message: string;
  /** Addresses separated by commas, semicolons, spaces or lines. */
  recipients: string;
  expiresInDays: string;
  /** Empty: no limit. */
  maxDownloads: string;
  /** Empty: no password. */
  password: string;
  /** Also a link for anyone beside the personal links (asked only when recipients are given). */
  openLink: boolean;
}

/** Whether the share gets a link for anyone: asked for, or its only link (no recipients). */
export const opensForAnyone = (d: ShareDraft) =>
  d.openLink || parseRecipients(d.recipients).length === 0;

export const shareFields = [
  "title",
  "message",
  "recipients",
  "expiresInDays",
  "maxDownloads",
  "password",
] as const;
export type ShareField = (typeof shareFields)[number];

/** The addresses typed, trimmed, lowercased and each once (as the service keeps them). */
export function parseRecipients(text: string): string[] {
  const all = text
    .split(/[\s,;]+/)
    .map((a) => a.trim().toLowerCase())
    .filter(Boolean);
  return [...new Set(all)];
}

// The same loose shape the service's zod email check accepts for everyday addresses.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const wholeIn = (text: string, min: number, max: number) => {
  const n = Number(text);
  return /^\d+$/.test(text.trim()) && n >= min && n <= max;
};

/** The contract's bounds, checked before the request; the service checks them again. */
export function validateShareDraft(d: ShareDraft): Problems<ShareField> {
  const recipients = parseRecipients(d.recipients);
  const bad = recipients.find((a) => a.length > EMAIL_MAX || !EMAIL.test(a));
  return {
    title:
      d.title.trim().length > SHARE_TITLE_MAX
        ? `At most ${SHARE_TITLE_MAX} characters.`
        : undefined,
    message:
      d.message.length > SHARE_MESSAGE_MAX ? `At most ${SHARE_MESSAGE_MAX} characters.` : undefined,
    recipients: bad
      ? `“${bad}” is not an email address.`
      : recipients.length > SHARE_RECIPIENTS_MAX
        ? `At most ${SHARE_RECIPIENTS_MAX} recipients.`
        : undefined,
    expiresInDays: wholeIn(d.expiresInDays, 1, SHARE_EXPIRES_DAYS_MAX)
      ? undefined
      : `A whole number of days, 1 to ${SHARE_EXPIRES_DAYS_MAX}.`,
    maxDownloads:
      d.maxDownloads.trim() === "" || wholeIn(d.maxDownloads, 1, SHARE_MAX_DOWNLOADS_MAX)
        ? undefined
        : `Empty for no limit, or 1 to ${SHARE_MAX_DOWNLOADS_MAX}.`,
    password:
      d.password !== "" &&
      (d.password.length < SHARE_PASSWORD_MIN || d.password.length > SHARE_PASSWORD_MAX)
        ? `${SHARE_PASSWORD_MIN} to ${SHARE_PASSWORD_MAX} characters, or empty for none.`
        : undefined,
  };
}

/** The create request for a valid draft; optional members left out when empty. */
export function shareBody(paths: string[], d: ShareDraft): CreateShareBody {
  return {
    paths,
    title: d.title.trim() || undefined,
    message: d.message.trim() || undefined,
    recipients: parseRecipients(d.recipients),
    expiresInDays: Number(d.expiresInDays),
    maxDownloads: d.maxDownloads.trim() === "" ? undefined : Number(d.maxDownloads),
    password: d.password === "" ? undefined : d.password,
    openLink: opensForAnyone(d),
  };
}
