import { describe, expect, it } from "vitest";
import { PORTAL_ACCESS_TTL_SECONDS } from "@/contract/portal-rules";
import type { UploadRow } from "./portals.repository";
import { caller, createBody, ENGINES, type Engine, NOW } from "./portals-store.engines";
import { caught, T0, UPLOADS } from "./portals-store.seed";
import { statusUrl } from "./sender-status.service";

/* The portal page's store on both engines: the same pages, tokens and refusals. */

const visitor = (slug: string, access?: string) => ({
  slug,
  access,
  address: "203.0.113.9",
  origin: "https://c.test",
});
const unknownPortal = {
  status: 404,
  code: "not_found",
  message: "Portal was not found",
  details: { reason: "unknown_portal" },
};
const unknownUpload = {
  status: 404,
  code: "not_found",
  message: "Upload was not found",
  details: { reason: "unknown_upload" },
};

/** The token of an upload's status page, as its confirmation's link carries it. */
async function statusToken(e: Engine, slug: string, uploadId: string) {
  const [row] = (await e.rows(
    `SELECT * FROM portal_uploads WHERE id = '${uploadId}'`,
  )) as unknown as UploadRow[];
  return statusUrl(e, "https://c.test", slug, row!).split("#")[1];
}

describe.each(ENGINES)("the portal page's store on $engine", ({ use }) => {
  const open = use();

  it("opens a portal by its slug in any state, and knows no other", async () => {
    const { page } = open();
    expect(await page.openPortal(visitor("p1-slug"))).toEqual({
      title: "Dailies",
      message: null,
      workspaceName: "Studio Ö",
      state: "open",
      passwordRequired: false,
      requireEmail: false,
      fields: [],
      rules: { allowedExtensions: [], maxFiles: null, namePattern: null },
      maxBytesPerUpload: null,
      spec: null,
      expiresAt: null,
      dueAt: null,
    });
    expect(await page.openPortal(visitor("p2-slug"))).toMatchObject({
      state: "expired",
      expiresAt: new Date(T0 - 1).toISOString(),
    });
    expect((await page.openPortal(visitor("p4-slug"))).state).toBe("revoked");
    for (const slug of ["nope", "P1-SLUG", "p1 slug", "x".repeat(65)])
      expect(await caught(page.openPortal(visitor(slug))), slug).toEqual(unknownPortal);
  });

  it("unlocks an open portal with its password, and the token opens that portal only", async () => {
    const { store, page } = open();
    const made = await store.createPortal(caller, createBody({ password: "correct horse" }));
    expect((await page.openPortal(visitor(made.slug))).passwordRequired).toBe(true);
    expect(await caught(page.unlockPortal(visitor(made.slug), "wrong horse"))).toEqual({
      status: 403,
      code: "forbidden",
      message: "That password is not right",
      details: { reason: "wrong_password", triesBeforeDelay: 4 },
    });
    const access = await page.unlockPortal(visitor(made.slug), "correct horse");
    expect(access.expiresAt).toBe(new Date(NOW + PORTAL_ACCESS_TTL_SECONDS * 1000).toISOString());
    const unlocked = visitor(made.slug, access.accessToken);
    expect((await page.openPortal(unlocked)).passwordRequired).toBe(false);
    expect((await page.openPortal(visitor(made.slug, "forged"))).passwordRequired).toBe(true);
    // A page without a password opens for anyone: any password unlocks it.
    expect((await page.unlockPortal(visitor("p1-slug"), "anything")).accessToken).toEqual(
      expect.any(String),
    );
    expect(await caught(page.unlockPortal(visitor("p4-slug"), "x"))).toEqual({
      status: 403,
      code: "forbidden",
      message: "This portal is revoked",
      details: { reason: "portal_revoked", state: "revoked" },
    });
    expect((await caught(page.unlockPortal(visitor("p2-slug"), "x"))).details).toEqual({
      reason: "portal_expired",
      state: "expired",
    });
    expect(await caught(page.unlockPortal(visitor("nope"), "x"))).toEqual(unknownPortal);
  });

  it("shows the sender a landed upload's status by its token, and nothing to a guess", async () => {
    const e = open();
    const { page } = e;
    const received = UPLOADS[0]!;
    expect(
      await page.senderStatus("p1-slug", received.id, await statusToken(e, "p1-slug", "u01")),
    ).toEqual({
      uploadId: "u01",
      reference: "U01",
      portalTitle: "Dailies",
      workspaceName: "Studio Ö",
      status: "received",
      noteToSender: null,
      decidedAt: null,
      receivedAt: new Date(T0).toISOString(),
      fileCount: 2,
      bytes: 201,
    });
    // u05: rejected on p2 (closed: the page still opens); u09: pending on p3.
    const rejected = await page.senderStatus(
      "p2-slug",
      "u05",
      await statusToken(e, "p2-slug", "u05"),
    );
    expect([rejected.status, rejected.decidedAt]).toEqual([
      "rejected",
      new Date(T0 + 4).toISOString(),
    ]);
    const held = await page.senderStatus("p3-slug", "u09", await statusToken(e, "p3-slug", "u09"));
    expect([held.status, held.decidedAt]).toEqual(["in_review", null]);
    const token = await statusToken(e, "p1-slug", "u01");
    for (const [slug, id, t] of [
      ["p1-slug", "u01", undefined],
      ["p1-slug", "u01", "forged"],
      ["p1-slug", "u04", token],
      ["p2-slug", "u01", token],
      ["p1-slug", "nope", token],
    ] as const)
      expect(await caught(page.senderStatus(slug, id, t)), `${slug} ${id}`).toEqual(unknownUpload);
    // Still arriving (u03 on p3) or failed (u06 on p3): no page, whatever the token.
    for (const id of ["u03", "u06"]) {
      const [row] = (await e.rows(
        `SELECT * FROM portal_uploads WHERE id = '${id}'`,
      )) as unknown as UploadRow[];
      const forged = statusUrl(e, "https://c.test", "p3-slug", { ...row!, completed_at: T0 });
      expect(await caught(page.senderStatus("p3-slug", id, forged.split("#")[1]))).toEqual(
        unknownUpload,
      );
    }
    expect(await caught(page.senderStatus("nope", "u01", token))).toEqual(unknownPortal);
  });
});
