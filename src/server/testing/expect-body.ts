import { expect } from "vitest";
import type { ErrorEnvelope } from "@/contract/common";
import { ApiError } from "@/server/lib/api-error";

/** What the typed client (`t.client(router)`) answers, whatever the route. */
interface AnyResponse {
  ok: boolean;
  status: number;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

type BodyOf<R extends AnyResponse> = Awaited<ReturnType<R["json"]>>;

/** Fails unless the response has `status`; returns its body as the contract types it for that status. */
export async function expectBody<R extends AnyResponse, S extends R["status"]>(
  res: R,
  status: S,
): Promise<BodyOf<Extract<R, { status: S }>>> {
  if (res.status !== status) {
    expect.fail(`expected HTTP ${status}, got ${res.status}: ${await res.text()}`);
  }
  return (await res.json()) as BodyOf<Extract<R, { status: S }>>;
}

/** Fails unless the response succeeded (any 2xx); returns its body as typed for success. */
export async function okBody<R extends AnyResponse>(
  res: R,
): Promise<BodyOf<Extract<R, { status: 200 | 201 }>>> {
  if (!res.ok) expect.fail(`expected success, got ${res.status}: ${await res.text()}`);
  return (await res.json()) as BodyOf<Extract<R, { status: 200 | 201 }>>;
}

export interface ErrorIssue {
  field: string;
  message: string;
  code: string;
}

/** A refused response's status and envelope, with a `validation_failed`'s issues read out. */
export async function refusal(res: AnyResponse) {
  const { error } = (await res.json()) as ErrorEnvelope;
  const details = error.details as Record<string, unknown> | null;
  return {
    status: res.status,
    code: error.code,
    message: error.message,
    // biome-ignore lint/suspicious/noExplicitAny: each code has its own details
    details: details as any,
    issues: (details?.issues ?? []) as ErrorIssue[],
  };
}

/** The refusal a service function throws when called directly (another module's entry into it). */
export function thrownRefusal(call: () => unknown) {
  try {
    call();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { code: err.code, issues: (err.details?.issues ?? []) as ErrorIssue[] };
  }
  return expect.fail("expected the call to be refused");
}

/** The envelope's error of a plain `fetch` response (the data node's, a raw request's). */
export const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { code: string; details: Record<string, unknown> } }).error;

/** Fails unless the response has `status`; returns the refusal as `refusal` reads it. */
export async function expectError<R extends AnyResponse>(res: R, status: R["status"]) {
  if (res.status !== status) {
    expect.fail(`expected HTTP ${status}, got ${res.status}: ${await res.text()}`);
  }
  return refusal(res);
}
