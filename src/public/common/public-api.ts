import { ApiError } from "@/browser/api-error";

/*
 * What the two public pages (the recipient page, public/share, and the portal page,
 * public/portal) share of their calls. Plain fetch: the pages stay small, so no query library and
 * no zod; the service's answers are trusted as typed by the contract.
 */

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
