import nodemailer, { type Transporter } from "nodemailer";
import type { AppDeps } from "@/server/deps";
import { toIso } from "@/server/lib/clock";
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
import { markRecipientSent, type ShareRow } from "./shares.repository";

/** Job kind that hands one outbox message to the SMTP server. */
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

/** The mail a recipient gets: who shares what, the message, the link, until when. */
function composeShareMail(share: ShareRow, workspaceName: string) {
  const lines = [
    `${workspaceName} shared "${share.title}" with you.`,
    "",
    ...(share.message ? [share.message, ""] : []),
    `Open it here: ${LINK_PLACEHOLDER}`,
    "",
    "This link is personal: the sender sees when it is opened and downloaded.",
    `It works until ${toIso(share.expires_at).replace("T", " ").slice(0, 16)} UTC.`,
    ...(share.password_hash ? ["The sender will give you the password."] : []),
  ];
  return { subject: `${workspaceName}: ${share.title}`, body: lines.join("\n") };
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
}

/**
 * Puts a message in the outbox (in the caller's transaction). A mail with SMTP_URL is queued for
 * the mail job; without, it waits there to be delivered by hand. A text message always waits:
 * this service has no SMS provider.
 */
export function queueMessage(deps: AppDeps, m: OutgoingMessage, now: number): string {
  const id = newId();
  const sms = m.channel === "sms";
  const smtp = !sms && deps.config.smtpUrl !== null;
  insertMessage(deps.db, {
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
  });
  if (smtp) deps.jobs.enqueue(MAIL_JOB, { messageId: id }, { uniqueKey: `${MAIL_JOB}:${id}` });
  return id;
}

/** A share's mail to one recipient, with their personal link. */
export function queueShareMail(
  deps: AppDeps,
  share: ShareRow,
  workspaceName: string,
  recipient: { id: string; email: string },
  link: string,
  now: number,
): string {
  return queueMessage(
    deps,
    {
      workspaceId: share.workspace_id,
      shareId: share.id,
      recipientId: recipient.id,
      to: recipient.email,
      ...composeShareMail(share, workspaceName),
      link,
    },
    now,
  );
}

/** The text as the outbox shows it: with the link while it is kept, else a marker. */
export const renderText = (m: Pick<OutboxRow, "body" | "link">) =>
  m.body.replace(LINK_PLACEHOLDER, m.link ?? "[link sent]");

export function mailJob(deps: AppDeps): JobKind {
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
          if (m.recipient_id) markRecipientSent(deps.db, m.recipient_id, now);
        })();
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        markAttemptFailed(deps.db, m.id, message.slice(0, 500), job.attempts >= job.maxAttempts);
        throw err;
      }
    },
  };
}
