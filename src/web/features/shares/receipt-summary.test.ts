import { describe, expect, it } from "vitest";
import type { DeliveryState } from "@/contract/receipt-verdict";
import { receiptVerdict } from "./receipt-summary";

type Input = Parameters<typeof receiptVerdict>[0];
const person = (delivery: DeliveryState) => ({ delivery }) as Input["recipients"][number];
const anonymous = {
  views: 0,
  downloads: 0,
  verifiedDownloads: 0,
  lastViewedAt: null,
  lastDownloadAt: null,
};

describe("receiptVerdict", () => {
  it("heads with the shared verdict and counts recipients by state", () => {
    const v = receiptVerdict({
      verdict: "partly_delivered",
      recipients: [person("verified"), person("not_delivered")],
      anonymous: { ...anonymous, downloads: 2 },
    });
    expect(v).toEqual({
      tone: "warning",
      headline: "Partly delivered",
      detail:
        "Not every recipient holds every file yet. 2 recipients: 1 verified, 1 not delivered yet. Plus 2 downloads through the plain link.",
    });
  });

  it("is danger when a copy failed, success when everyone verified", () => {
    const failed = receiptVerdict({
      verdict: "failed",
      recipients: [person("failed")],
      anonymous,
    });
    expect(failed.tone).toBe("danger");
    expect(failed.headline).toBe("Verification failed");
    expect(
      receiptVerdict({ verdict: "verified", recipients: [person("verified")], anonymous }).tone,
    ).toBe("success");
  });

  it("says a link-only share is judged on the plain link", () => {
    expect(receiptVerdict({ verdict: "verified", recipients: [], anonymous }).detail).toContain(
      "plain link",
    );
  });
});
