import nodemailer, { type Transporter } from "nodemailer";
import type { AppDeps } from "@/server/deps";
import { newId } from "@/server/lib/ids";
import type { JobKind } from "@/server/workers/job-runner";
import {
  insertMessage,
  LINK_PLACEHOLDER,
  type NewOutboxRow,
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
 * A message's outbox row, and the mail job that sends it: with SMTP_URL a mail is queued for
 * the job; without, it waits there to be delivered by hand. A text message always waits: this
 * service has no SMS provider. Either engine writes both in the caller's transaction.
 */
export function outboxEntry(m: OutgoingMessage, now: number, smtpUrl: string | null) {
  const id = newId();
  const sms = m.channel === "sms";
  const smtp = !sms && smtpUrl !== null;
  const row: NewOutboxRow = {
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
        kind: MAIL_JOB,
        payload: { messageId: id },
        uniqueKey: `${MAIL_JOB}:${id}`,
        runAt: now + (m.holdMs ?? 0),
        maxAttempts: MAIL_ATTEMPTS,
      }
    : null;
  return { row, job };
}

/** Puts a message in the outbox (in the caller's transaction), its mail job with it. */
export function queueMessage(deps: AppDeps, m: OutgoingMessage, now: number): string {
  const { row, job } = outboxEntry(m, now, deps.config.smtpUrl);
  insertMessage(deps.db, row);
  if (job) deps.jobs.enqueue(job.kind, job.payload, job);
  return row.id;
}

/** The text as the outbox shows it: with the link while it is kept, else a marker. */
export const renderText = (m: Pick<OutboxRow, "body" | "link">) =>
  m.body.replace(LINK_PLACEHOLDER, m.link ?? "[link sent]");

export function mailJob(deps: AppDeps): JobKind {
  const store = deps.mailStore;
  return {
    maxAttempts: MAIL_ATTEMPTS,
    backoffMs: (attempts) => Math.min(30_000 * 2 ** (attempts - 1), 1_800_000),
    run: async (payload, job) => {
      const { messageId } = payload as { messageId: string };
      const m = await store.message(messageId);
      if (m?.status !== "queued" || m.channel !== "email" || deps.config.smtpUrl === null) return;
      try {
        const info = await transportFor(deps.config.smtpUrl).sendMail({
          from: deps.config.mailFrom,
          to: m.to_address,
          subject: m.subject,
          text: renderText(m),
        });
        await store.markSent(m, info.messageId ?? null);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        await store.markFailed(m.id, message.slice(0, 500), job.attempts >= job.maxAttempts);
        throw err;
      }
    },
  };
}
