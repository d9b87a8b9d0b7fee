import { expect } from "vitest";

interface AnyResponse {
  status: number;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

/**
 * For the typed client (`t.client(router)`): fails unless the response has `status`, and returns
 * its body as the contract types it for that status.
 */
export async function expectBody<R extends AnyResponse, S extends R["status"]>(
  res: R,
  status: S,
): Promise<Awaited<ReturnType<Extract<R, { status: S }>["json"]>>> {
  if (res.status !== status) {
    expect.fail(`expected HTTP ${status}, got ${res.status}: ${await res.text()}`);
  }
  return (await res.json()) as Awaited<ReturnType<Extract<R, { status: S }>["json"]>>;
}

export interface ErrorIssue {
  field: string;
  message: string;
  code: string;
}

/**
 * For the typed client: fails unless the response has `status`, and returns the error envelope's
 * `error` with the issues of a `validation_failed` read out (empty for other errors).
 */
export async function expectError<R extends AnyResponse>(res: R, status: R["status"]) {
  const { error } = (await expectBody(res, status)) as {
    error: { code: string; message: string; details: Record<string, unknown> | null };
  };
  const issues = (error.details?.issues ?? []) as ErrorIssue[];
  return { ...error, issues };
}
