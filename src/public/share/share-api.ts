import type { ProxyStatus } from "@/contract/media";
import { SHARE_ACCESS_HEADER } from "@/contract/rules";
import type { PublicShare } from "@/contract/share-public";
import type { ShareComment } from "@/contract/shares";
import type { TransferSpec } from "@/contract/transfers";
import { PublicApi } from "@/public/common/public-api";

/* The recipient page's calls (operations tagged Recipient in /v1/openapi.json). */

export class LinkApi extends PublicApi {
  constructor(token: string) {
    super(
      `/v1/public/shares/${encodeURIComponent(token)}`,
      SHARE_ACCESS_HEADER,
      `consign-share-access:${token}`,
    );
  }

  open = () => this.call<PublicShare>("GET", "");

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
    return `${this.base}/thumbnail?${q}`;
  }

  /** A file's proxies for the preview, with signed addresses (queues what it still lacks). */
  proxies = (path: string) =>
    this.call<ProxyStatus>("GET", `/proxies?${new URLSearchParams({ path })}`);

  comments = () => this.call<{ items: ShareComment[] }>("GET", "/comments");

  addComment = (body: { body: string; name?: string }) =>
    this.call<ShareComment>("POST", "/comments", body);
}
