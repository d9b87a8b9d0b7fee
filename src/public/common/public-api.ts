import type { FieldIssue } from "@/contract/common";

/*
 * What the two public pages (the recipient page, public/share, and the portal page,
 * public/portal) share of their calls. Plain fetch: the pages stay small, so no query library and no zod; the
 * service's answers are trusted as typed by the contract.
 */

/** A failure the service reported in its envelope `{error: {code, message, details}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> | null,
  ) {
    super(message);
  }
  /** `details.reason`: why a link or a portal is closed, or a password refused. */
  get reason() {
    return (this.details?.reason as string | undefined) ?? null;
  }
  /** Per-field problems of `validation_failed` and `path_rejected`. */
  get issues() {
    return (this.details?.issues as FieldIssue[] | undefined) ?? [];
  }
}

/**
 * A public page's calls below `base` (`/v1/public/shares/{token}`, `/v1/public/portals/{slug}`),
 * no key. The access token a password unlocks travels in `accessHeader` and is kept for the tab
 * (sessionStorage) under `storageKey`.
 */
export class PublicApi {
  access: string | null;

  constructor(
    protected readonly base: string,
    private readonly accessHeader: string,
    private readonly storageKey: string,
  ) {
    this.access = sessionStorage.getItem(storageKey);
  }

  /** One call: JSON in and out; a refusal throws the envelope as an ApiError. */
  protected async call<T>(
    method: string,
    suffix: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    if (this.access) headers[this.accessHeader] = this.access;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(`${this.base}${suffix}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = res.status === 204 ? null : await res.json().catch(() => null);
    if (!res.ok) {
      const e = data?.error;
      throw new ApiError(
        res.status,
        e?.code ?? "internal_error",
        e?.message ?? `The service answered ${res.status}`,
        e?.details ?? null,
      );
    }
    return data as T;
  }

  async unlock(password: string) {
    const r = await this.call<{ accessToken: string }>("POST", "/unlock", { password });
    this.access = r.accessToken;
    sessionStorage.setItem(this.storageKey, r.accessToken);
  }

  forget() {
    this.access = null;
    sessionStorage.removeItem(this.storageKey);
  }
}
