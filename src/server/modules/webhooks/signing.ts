import { createHmac } from "node:crypto";
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER } from "@/contract/webhooks";
import type { Db } from "@/server/db/database";
import { toIso } from "@/server/lib/clock";
import { type EventRow, getEvent } from "@/server/modules/events/events.repository";
import { deliveryTarget } from "./deliveries.repository";
import type { SecretBox } from "./secret-box";

export const USER_AGENT = "Consign-Webhooks/1.0";

/** Spec Signature: hex HMAC-SHA256 of `<t>.<rawBody>` keyed with the endpoint's secret. */
export function signatureHeader(secret: string, rawBody: string, unixSeconds: number): string {
  const v1 = createHmac("sha256", secret).update(`${unixSeconds}.${rawBody}`).digest("hex");
  return `t=${unixSeconds},v1=${v1}`;
}

export interface PreparedRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A request to send, or, when the secret cannot be opened, the unsigned request and why. */
export interface BuiltRequest {
  request: PreparedRequest;
  signingError: string | null;
}

/**
 * The request an attempt of this delivery sends, signed now with the endpoint's current secret;
 * null when the delivery or its event no longer exists.
 */
export function buildRequest(
  db: Db,
  secrets: SecretBox,
  delivery: { id: string; event_id: string },
  attempt: number,
  now: number,
): BuiltRequest | null {
  const target = deliveryTarget(db, delivery.id);
  const event = target && getEvent(db, delivery.event_id);
  if (!target || !event) return null;
  return signedRequest(secrets, target, event, delivery.id, attempt, now);
}

/** buildRequest's request from rows already read (the webhooks store reads them on PostgreSQL). */
export function signedRequest(
  secrets: SecretBox,
  target: { url: string; secret_sealed: string },
  event: EventRow,
  deliveryId: string,
  attempt: number,
  now: number,
): BuiltRequest {
  // The stored data is already JSON; splicing it in avoids a parse and re-serialise per attempt.
  const body = `{"id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.type)},"createdAt":"${toIso(event.created_at)}","workspaceId":${JSON.stringify(event.workspace_id)},"data":${event.data},"delivery":{"id":${JSON.stringify(deliveryId)},"attempt":${attempt}}}`;
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "User-Agent": USER_AGENT,
  };
  let signingError: string | null = null;
  try {
    const secret = secrets.open(target.secret_sealed);
    headers[SIGNATURE_HEADER] = signatureHeader(secret, body, Math.floor(now / 1000));
  } catch (err) {
    signingError = err instanceof Error ? err.message : String(err);
  }
  headers[EVENT_HEADER] = event.type;
  headers[DELIVERY_HEADER] = deliveryId;
  return { request: { url: target.url, body, headers }, signingError };
}
