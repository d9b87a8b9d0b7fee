import type {
  PortalConfirmation,
  PublicPortal,
  StartedPortalUpload,
} from "@/contract/portal-public";
import { PORTAL_ACCESS_HEADER } from "@/contract/portal-rules";
import type { Issue } from "./portal-model";

/*
 * The portal page's calls (the public portal operations in /v1/openapi.json). Plain fetch, no
 * zod, as on the recipient page: the answers are trusted as the contract types them. The error
 * class is the recipient page's shape, not its module: that module's LinkApi would come along.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> | null,
  ) {
    super(message);
  }
  get reason() {
    return (this.details?.reason as string | undefined) ?? null;
  }
  get issues() {
    return (this.details?.issues as Issue[] | undefined) ?? [];
  }
}

export class PortalApi {
  access: string | null;

  constructor(readonly slug: string) {
    this.access = sessionStorage.getItem(this.storageKey);
  }

  private get storageKey() {
    return `consign-portal-access:${this.slug}`;
  }

  private async call<T>(
    method: string,
    suffix: string,
    body?: unknown,
    bearer?: string,
  ): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.access) headers[PORTAL_ACCESS_HEADER] = this.access;
    if (bearer) headers.Authorization = `Bearer ${bearer}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(`/v1/public/portals/${encodeURIComponent(this.slug)}${suffix}`, {
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

  open = () => this.call<PublicPortal>("GET", "");

  async unlock(password: string) {
    const r = await this.call<{ accessToken: string }>("POST", "/unlock", { password });
    this.access = r.accessToken;
    sessionStorage.setItem(this.storageKey, r.accessToken);
  }

  forget() {
    this.access = null;
    sessionStorage.removeItem(this.storageKey);
  }

  startUpload = (body: unknown) => this.call<StartedPortalUpload>("POST", "/uploads", body);

  complete = (uploadId: string, token: string) =>
    this.call<PortalConfirmation>(
      "POST",
      `/uploads/${encodeURIComponent(uploadId)}/complete`,
      undefined,
      token,
    );

  cancel = (uploadId: string, token: string) =>
    this.call<null>("POST", `/uploads/${encodeURIComponent(uploadId)}/cancel`, {}, token);
}
