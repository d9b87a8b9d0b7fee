import type { z } from "zod";
import type { OutboxMessage, outboxQuerySchema } from "@/contract/mail";
import type { AppDeps } from "@/server/deps";
import { toIso, toIsoOrNull } from "@/server/lib/clock";
import { renderText } from "./mailer";
import { listMessages, type OutboxRow } from "./outbox.repository";

export const toOutboxMessage = (m: OutboxRow): OutboxMessage => ({
  id: m.id,
  shareId: m.share_id,
  portalId: m.portal_id,
  channel: m.channel,
  to: m.to_address,
  subject: m.subject,
  text: renderText(m),
  link: m.link,
  status: m.status,
  attempts: m.attempts,
  error: m.error,
  createdAt: toIso(m.created_at),
  sentAt: toIsoOrNull(m.sent_at),
});

export function listOutbox(
  deps: AppDeps,
  workspaceId: string,
  q: z.output<typeof outboxQuerySchema> & { area?: "shares" | "portals" },
) {
  const rows = listMessages(deps.db, workspaceId, { ...q, limit: q.limit + 1 });
  const page = rows.slice(0, q.limit);
  return { items: page.map(toOutboxMessage), next: rows.length > q.limit ? page.at(-1)!.id : null };
}
