import nodemailer, { type Transporter } from "nodemailer";
import type { AppDeps } from "@/server/deps";
import { newId } from "@/server/lib/ids";
import type { JobKind } from "@/server/workers/job-runner";
import {
  insertMessage,
  LINK_PLACEHOLDER,
  markAttemptFailed,
  markSent,
  messageById,
  type OutboxRow,
} from "./outbox.repository";

/**
 * Job kind that hands one outbox message to the SMTP server. Named when mail was part of shares;
 * the name stays, as queued jobs in existing databases carry it.
 */
export const MAIL_JOB = "shares.mail";
const MAIL_ATTEMPTS = 6;

// One pooled connection set per SMTP URL, for the life of the process.
const transports = new Map<string, Transporter>();
function transportFor(url: string) {
  let t = transports.get(url);
  if (!t) {
    t = nodemailer.createTransport(url);
    transports.set(url, t);
  }
  return t;
}

/** One message for the outbox, of any area: a share's link, a portal's invite or notice. */
export interface OutgoingMessage {
  workspaceId: string;
  shareId?: string;
  portalId?: string;
  recipientId?: string;
  channel?: "email" | "sms";
  to: string;
  subject: string;
  /** The text; LINK_PLACEHOLDER where `link` goes (a link is kept only until it is sent). */
  body: string;
  link?: string;
  /** Sent no sooner than this many ms from now: time for the message to be withdrawn. */
  holdMs?: number;
}

/**
 * Puts a message in the outbox (in the caller's transaction). A mail with SMTP_URL is queued for
 * the mail job; without, it waits there to be delivered by hand. A text message always waits:
 * this service has no SMS provider.
 */
export function queueMessage(deps: AppDeps, m: OutgoingMessage, now: number): string {
  const { row, job } = outboxEntry(m, deps.config.smtpUrl !== null, now);
  insertMessage(deps.db, row);
  if (job) deps.jobs.enqueue(MAIL_JOB, job.payload, job.options);
  return row.id;
}

/** The outbox row of a message and the mail job it needs (none without SMTP, or for a text). */
export function outboxEntry(m: OutgoingMessage, smtpConfigured: boolean, now: number) {
  const id = newId();
  const sms = m.channel === "sms";
  const smtp = !sms && smtpConfigured;
  const row: Omit<OutboxRow, "attempts" | "smtp_message_id" | "sent_at"> = {
    id,
    workspace_id: m.workspaceId,
    share_id: m.shareId ?? null,
    portal_id: m.portalId ?? null,
    recipient_id: m.recipientId ?? null,
    channel: sms ? "sms" : "email",
    to_address: m.to,
    subject: m.subject,
    body: m.body,
    link: m.link ?? null,
    status: smtp ? "queued" : "waiting",
    error: sms ? "Not sent: no SMS provider is configured" : null,
    created_at: now,
  };
  const job = smtp
    ? {
        payload: { messageId: id },
        options: { uniqueKey: `${MAIL_JOB}:${id}`, runAt: now + (m.holdMs ?? 0) },
      }
    : null;
  return { row, job };
}

/** The text as the outbox shows it: with the link while it is kept, else a marker. */
export const renderText = (m: Pick<OutboxRow, "body" | "link">) =>
  m.body.replace(LINK_PLACEHOLDER, m.link ?? "[link sent]");

/**
 * What an area does once one of its messages has left, in the transaction that marks it sent
 * (shares: the recipient's `sentAt`). Mail knows no area's tables: each area hands its own.
 */
export type AfterSent = (deps: AppDeps, m: OutboxRow, now: number) => void;

export function mailJob(deps: AppDeps, afterSent: AfterSent): JobKind {
  return {
    maxAttempts: MAIL_ATTEMPTS,
    backoffMs: (attempts) => Math.min(30_000 * 2 ** (attempts - 1), 1_800_000),
    run: async (payload, job) => {
      const { messageId } = payload as { messageId: string };
      const m = messageById(deps.db, messageId);
      if (m?.status !== "queued" || m.channel !== "email" || deps.config.smtpUrl === null) return;
      try {
        const info = await transportFor(deps.config.smtpUrl).sendMail({
          from: deps.config.mailFrom,
          to: m.to_address,
          subject: m.subject,
          text: renderText(m),
        });
        deps.db.transaction(() => {
          const now = deps.clock.now();
          markSent(deps.db, m.id, info.messageId ?? null, now);
          afterSent(deps, m, now);
        })();
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        markAttemptFailed(deps.db, m.id, message.slice(0, 500), job.attempts >= job.maxAttempts);
        throw err;
      }
    },
  };
}
