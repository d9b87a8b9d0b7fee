import { describe, expect, it } from "vitest";
import { receiptVerdict } from "./receipt-summary";

type Input = Parameters<typeof receiptVerdict>[0];
const person = (downloaded: boolean, verified: boolean) =>
  ({ downloaded, verified }) as Input["recipients"][number];
const download = (completed: boolean, verified: boolean) =>
  ({
    completedAt: completed ? "2026-01-01T00:00:00Z" : null,
    verified,
  }) as Input["downloads"][number];
const anonymous = {
  views: 0,
  downloads: 0,
  verifiedDownloads: 0,
  lastViewedAt: null,
  lastDownloadAt: null,
};

describe("receiptVerdict", () => {
  it("says nothing arrived while no download completed (a started one does not count)", () => {
    const v = receiptVerdict({
      recipients: [person(false, false)],
      downloads: [download(false, false)],
      integrity: "none",
      anonymous,
    });
    expect(v.tone).toBe("neutral");
    expect(v.headline).toBe("Not downloaded yet");
  });

  it("is success only when every recipient downloaded everything and each verified", () => {
    expect(
      receiptVerdict({
        recipients: [person(true, true), person(true, true)],
        downloads: [download(true, true), download(true, true)],
        integrity: "verified",
        anonymous,
      }).tone,
    ).toBe("success");
    const partly = receiptVerdict({
      recipients: [person(true, true), person(false, false)],
      downloads: [download(true, true)],
      integrity: "verified",
      anonymous,
    });
    expect(partly.tone).toBe("warning");
    expect(partly.detail).toContain("1 of 2 recipients");
  });

  it("is danger when any completed download is unverified", () => {
    const v = receiptVerdict({
      recipients: [person(true, false)],
      downloads: [download(true, true), download(true, false)],
      integrity: "none",
      anonymous,
    });
    expect(v.tone).toBe("danger");
    expect(v.detail).toMatch(/^1 completed download could not be verified/);
  });

  it("counts a link-only share's verified downloads as delivered", () => {
    expect(
      receiptVerdict({
        recipients: [],
        downloads: [download(true, true)],
        integrity: "verified",
        anonymous: { ...anonymous, downloads: 1, verifiedDownloads: 1 },
      }).headline,
    ).toBe("Delivered and verified");
  });
});
