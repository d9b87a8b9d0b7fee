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

/**
 * Puts a share's mail to one recipient in the outbox (in the caller's transaction). With
 * SMTP_URL it is queued for the mail job; without, it waits there to be delivered by hand.
 */
export function queueShareMail(
  deps: AppDeps,
  share: ShareRow,
  workspaceName: string,
  recipient: { id: string; email: string },
  link: string,
  now: number,
): string {
  const { subject, body } = composeShareMail(share, workspaceName);
  const id = newId();
  const smtp = deps.config.smtpUrl !== null;
  insertMessage(deps.db, {
    id,
    workspace_id: share.workspace_id,
    share_id: share.id,
    recipient_id: recipient.id,
    to_address: recipient.email,
    subject,
    body,
    link,
    status: smtp ? "queued" : "waiting",
    created_at: now,
  });
  if (smtp) deps.jobs.enqueue(MAIL_JOB, { messageId: id }, { uniqueKey: `${MAIL_JOB}:${id}` });
  return id;
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
      if (m?.status !== "queued" || m.link === null || deps.config.smtpUrl === null) return;
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
