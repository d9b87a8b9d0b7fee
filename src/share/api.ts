import { SHARE_ACCESS_HEADER } from "@/contract/rules";
import type { PublicShare } from "@/contract/share-public";
import type { ShareComment } from "@/contract/shares";
import type { TransferSpec } from "@/contract/transfers";

/*
 * The recipient page's calls (operations tagged Recipient in /v1/openapi.json). Plain fetch:
 * the page stays small, so no query library and no zod; the service's answers are trusted as
 * typed by the contract.
 */

export interface ApiFailure {
  status: number;
  code: string;
  message: string;
  details: Record<string, unknown> | null;
}

export class ApiError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.message);
  }
  get reason() {
    return (this.failure.details?.reason as string | undefined) ?? null;
  }
  get issueCode() {
    const issues = this.failure.details?.issues as { code: string }[] | undefined;
    return issues?.[0]?.code ?? null;
  }
}

export class LinkApi {
  access: string | null;

  constructor(readonly token: string) {
    this.access = sessionStorage.getItem(this.storageKey);
  }

  private get storageKey() {
    return `consign-share-access:${this.token}`;
  }

  private async call<T>(method: string, suffix: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.access) headers[SHARE_ACCESS_HEADER] = this.access;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(`/v1/public/shares/${encodeURIComponent(this.token)}${suffix}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await res.json().catch(() => null);
    if (!res.ok) {
      const e = data?.error;
      throw new ApiError({
        status: res.status,
        code: e?.code ?? "internal_error",
        message: e?.message ?? `The service answered ${res.status}`,
        details: e?.details ?? null,
      });
    }
    return data as T;
  }

  open = () => this.call<PublicShare>("GET", "");

  async unlock(password: string) {
    const r = await this.call<{ accessToken: string }>("POST", "/unlock", { password });
    this.access = r.accessToken;
    sessionStorage.setItem(this.storageKey, r.accessToken);
  }

  forget() {
    this.access = null;
    sessionStorage.removeItem(this.storageKey);
  }

  startDownload = (paths: string[]) =>
    this.call<{ transferId: string; transferSpec: TransferSpec }>("POST", "/downloads", { paths });

  completeDownload = (transferId: string, files: { path: string; sha256: string | null }[]) =>
    this.call<{ verified: boolean; unverifiedFiles: string[] }>(
      "POST",
      `/downloads/${encodeURIComponent(transferId)}/complete`,
      { files },
    );

  thumbnailUrl(path: string) {
    const q = new URLSearchParams({ path });
    // An <img> sends no header: the access token rides in the query.
    if (this.access) q.set("access", this.access);
    return `/v1/public/shares/${encodeURIComponent(this.token)}/thumbnail?${q}`;
  }

  comments = () => this.call<{ items: ShareComment[] }>("GET", "/comments");

  addComment = (body: { body: string; name?: string }) =>
    this.call<ShareComment>("POST", "/comments", body);
}
