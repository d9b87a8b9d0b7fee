import type { OutboxMessage } from "@/contract/mail";
import type { AppDeps } from "@/server/deps";
import type { Caller } from "@/server/http/caller";
import { validationFailed } from "@/server/lib/api-error";
import { toIso } from "@/server/lib/clock";
import type { AfterSent } from "@/server/modules/mail/mail-store";
import { type OutgoingMessage, queueMessage } from "@/server/modules/mail/mailer";
import { LINK_PLACEHOLDER, messageById } from "@/server/modules/mail/outbox.repository";
import { toOutboxMessage } from "@/server/modules/mail/outbox.service";
import { getWorkspace } from "@/server/modules/workspaces/workspaces.repository";
import { issuePersonalToken, linkUrl } from "./share-access";
import {
  insertLink,
  markRecipientSent,
  recipientsOf,
  type ShareRow,
  statusOfRow,
} from "./shares.repository";
import { linkBase, requireShare } from "./shares.service";

/* The mail a share's recipients get (through the mail module's outbox), and sending it again. */

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

/** A share's mail to one recipient, with their personal link, as either engine queues it. */
export const shareMessage = (
  share: ShareRow,
  workspaceName: string,
  recipient: { id: string; email: string },
  link: string,
): OutgoingMessage => ({
  workspaceId: share.workspace_id,
  shareId: share.id,
  recipientId: recipient.id,
  to: recipient.email,
  ...composeShareMail(share, workspaceName),
  link,
});

export function queueShareMail(
  deps: AppDeps,
  share: ShareRow,
  workspaceName: string,
  recipient: { id: string; email: string },
  link: string,
  now: number,
): string {
  return queueMessage(deps, shareMessage(share, workspaceName, recipient, link), now);
}

/** The mail module's hook: a share's mail has left, so its recipient's `sentAt` moves. */
export const shareMailSent: AfterSent = (db, m, now) => {
  if (m.recipient_id) markRecipientSent(db, m.recipient_id, now);
};

/**
 * Mails the link again to some or all recipients, each with a fresh personal link (their
 * earlier links keep working). Only an active share (`share_not_active`); every address must
 * be one of its recipients (`unknown_recipient`, `details.emails`).
 */
export function resendShare(
  deps: AppDeps,
  caller: Caller,
  shareId: string,
  emails: string[] | undefined,
): { messages: OutboxMessage[] } {
  const { db } = deps;
  return db
    .transaction(() => {
      const now = deps.clock.now();
      const share = requireShare(deps, caller.workspaceId, shareId);
      const status = statusOfRow(share, now);
      if (status !== "active")
        throw validationFailed(
          "shareId",
          `The share is ${status}: nothing to resend`,
          "share_not_active",
          { issue: `the share is ${status}`, details: { status } },
        );
      const all = recipientsOf(db, shareId);
      const wanted = emails ? new Set(emails) : null;
      const unknown = emails ? [...wanted!].filter((e) => !all.some((r) => r.email === e)) : [];
      if (unknown.length > 0)
        throw validationFailed(
          "recipients",
          `Not recipients of this share: ${unknown.join(", ")}`,
          "unknown_recipient",
          { issue: "not a recipient of this share", details: { emails: unknown } },
        );
      if (all.length === 0)
        throw validationFailed("recipients", "This share has no recipients", "no_recipients");
      const workspaceName = getWorkspace(db, caller.workspaceId)?.name ?? "";
      const base = linkBase(deps, caller.origin);
      const ids = all
        .filter((r) => !wanted || wanted.has(r.email))
        .map((r) => {
          const { token, hash } = issuePersonalToken();
          insertLink(db, hash, shareId, r.id, now);
          return queueShareMail(deps, share, workspaceName, r, linkUrl(base, token), now);
        });
      return { messages: ids.map((id) => toOutboxMessage(messageById(db, id)!)) };
    })
    .immediate();
}
