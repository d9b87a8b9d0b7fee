import type {
  PortalConfirmation,
  PublicPortal,
  SenderStatusPage,
  StartedPortalUpload,
} from "@/contract/portal-public";
import { PORTAL_ACCESS_HEADER, PORTAL_STATUS_HEADER } from "@/contract/portal-rules";
import { PublicApi } from "@/public/common/public-api";

/* The portal page's calls (the public portal operations in /v1/openapi.json). */

export class PortalApi extends PublicApi {
  constructor(readonly slug: string) {
    super(
      `/v1/public/portals/${encodeURIComponent(slug)}`,
      PORTAL_ACCESS_HEADER,
      `consign-portal-access:${slug}`,
    );
  }

  open = () => this.call<PublicPortal>("GET", "");

  startUpload = (body: unknown) => this.call<StartedPortalUpload>("POST", "/uploads", body);

  /** `complete` and `cancel` are authenticated by the upload's transfer token. */
  complete = (uploadId: string, token: string) =>
    this.call<PortalConfirmation>(
      "POST",
      `/uploads/${encodeURIComponent(uploadId)}/complete`,
      undefined,
      { Authorization: `Bearer ${token}` },
    );

  cancel = (uploadId: string, token: string) =>
    this.call<null>(
      "POST",
      `/uploads/${encodeURIComponent(uploadId)}/cancel`,
      {},
      {
        Authorization: `Bearer ${token}`,
      },
    );

  /** The sender's status page of one upload, opened by the token in its address. */
  uploadStatus = (uploadId: string, token: string) =>
    this.call<SenderStatusPage>(
      "GET",
      `/uploads/${encodeURIComponent(uploadId)}/status`,
      undefined,
      { [PORTAL_STATUS_HEADER]: token },
    );
}
