import { describe, expect, it } from "vitest";
import type { CreatePortalBody } from "@/contract/portals";
import type { ManualClock } from "@/server/lib/clock";
import { expectBody, expectError } from "@/server/testing/expect-body";
import { type TestApp, testAppEach } from "@/server/testing/test-app";
import { sharesRouter } from "../shares/shares.index";
import { portalsRouter } from "./portals.index";

let t: TestApp;
let clock: ManualClock;
const DAY = 86_400_000;

testAppEach((app, c) => {
  t = app;
  clock = c;
});

const api = (key?: string) => t.client(portalsRouter, { key }).workspaces[":workspaceId"];
const create = (json: CreatePortalBody, key?: string) =>
  api(key).portals.$post({ param: t.ws, json });
const events = (type: string) =>
  t.deps.db
    .prepare("SELECT data FROM events WHERE type = ? ORDER BY id")
    .all(type)
    .map((r) => JSON.parse((r as { data: string }).data));

describe("create", () => {
  it("stores every member, answers the portal without its password, and records portal.created", async () => {
    const p = await expectBody(
      await create({
        title: "  Send us your dailies ",
        message: "Up to Friday",
        targetPath: "Incoming/Dailies",
        requireEmail: true,
        password: "correct horse",
        maxBytesPerUpload: 5_000_000,
        expiresInDays: 30,
        notifyOnUpload: true,
        projectId: "PRJ-7",
        dueAt: "2026-06-05T17:00:00Z",
        inviteEmails: ["Ana@Example.com", "ana@example.com"],
        invitePhones: ["+4915112345678"],
        fields: [{ key: "shoot_day", label: "Shoot day", required: true }],
        rules: {
          allowedExtensions: [".MOV", "mp4"],
          maxFiles: 10,
          namePattern: "[A-Z]+_\\d+\\..*",
        },
        spec: { name: "ProRes in MOV", containers: ["MOV"], videoCodecs: ["prores"] },
        approvedPath: "Approved",
      }),
      201,
    );
    expect(p).toMatchObject({
      title: "Send us your dailies",
      targetPath: "Incoming/Dailies",
      requireEmail: true,
      hasPassword: true,
      maxBytesPerUpload: 5_000_000,
      expiresAt: new Date(clock.now() + 30 * DAY).toISOString(),
      notifyOnUpload: true,
      status: "active",
      uploadCount: 0,
      bytesReceived: 0,
      expired: false,
      awaitingReview: 0,
      projectId: "PRJ-7",
      rules: { allowedExtensions: ["mov", "mp4"], maxFiles: 10 },
      spec: { containers: ["mov"], videoCodecs: ["prores"] },
      approvedPath: "Approved",
      invites: { emails: ["ana@example.com"], phones: ["+4915112345678"] },
    });
    expect(p.slug).toMatch(/^send-us-your-dailies-[a-z0-9]{10}$/);
    expect(p.url).toMatch(new RegExp(`/p/${p.slug}$`));
    expect(JSON.stringify(p)).not.toContain("correct horse");
    expect(events("portal.created")).toEqual([
      { portalId: p.id, slug: p.slug, title: p.title, targetPath: "Incoming/Dailies" },
    ]);
    // One mail invite (duplicates fold) and one phone invite listed as not sent.
    const outbox = await expectBody(
      await t
        .client(sharesRouter)
        .workspaces[":workspaceId"].outbox.$get({ param: t.ws, query: { portalId: p.id } }),
      200,
    );
    expect(outbox.items.map((m) => [m.channel, m.to, m.status])).toEqual(
      expect.arrayContaining([
        ["email", "ana@example.com", "waiting"],
        ["sms", "+4915112345678", "waiting"],
      ]),
    );
    expect(outbox.items.find((m) => m.channel === "sms")!.error).toMatch(/no SMS provider/);
    expect(outbox.items.find((m) => m.channel === "email")!.text).toContain(p.url);
  });

  it("refuses every bound the spec states, and the ones it leaves open", async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ title: "" }, "title"],
      [{ title: "x".repeat(121) }, "title"],
      [{ title: "t", message: "m".repeat(2001) }, "message"],
      [{ title: "t", password: "short" }, "password"],
      [{ title: "t", password: "p".repeat(257) }, "password"],
      [{ title: "t", expiresInDays: 0 }, "expiresInDays"],
      [{ title: "t", expiresInDays: 3651 }, "expiresInDays"],
      [{ title: "t", projectId: "p".repeat(65) }, "projectId"],
      [
        { title: "t", inviteEmails: Array.from({ length: 101 }, (_, i) => `a${i}@x.io`) },
        "inviteEmails",
      ],
      [{ title: "t", inviteEmails: ["not an address"] }, "inviteEmails.0"],
      [
        {
          title: "t",
          invitePhones: Array.from({ length: 101 }, (_, i) => `+4915100000${100 + i}`),
        },
        "invitePhones",
      ],
      [{ title: "t", invitePhones: ["12345"] }, "invitePhones.0"],
      [
        {
          title: "t",
          fields: Array.from({ length: 21 }, (_, i) => ({ key: `f${i}`, label: "F" })),
        },
        "fields",
      ],
      [
        {
          title: "t",
          fields: [
            { key: "a", label: "A" },
            { key: "a", label: "B" },
          ],
        },
        "fields",
      ],
      [{ title: "t", fields: [{ key: "Bad Key", label: "A" }] }, "fields.0.key"],
      [{ title: "t", rules: { allowedExtensions: ["m o v"] } }, "rules.allowedExtensions.0"],
      [{ title: "t", rules: { maxFiles: 0 } }, "rules.maxFiles"],
      [{ title: "t", maxBytesPerUpload: 0 }, "maxBytesPerUpload"],
    ];
    for (const [body, field] of bad) {
      const e = await expectError(await create(body as never), 400);
      expect(e.code, JSON.stringify(body)).toBe("validation_failed");
      expect(
        e.issues.map((i) => i.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    const pattern = await expectError(
      await create({ title: "t", rules: { namePattern: "(a" } }),
      400,
    );
    expect(pattern.issues[0]).toMatchObject({
      field: "rules.namePattern",
      code: "invalid_pattern",
    });
    const lookaround = await expectError(
      await create({ title: "t", rules: { namePattern: "(?=a)b" } }),
      400,
    );
    expect(lookaround.issues[0]!.code).toBe("invalid_pattern");
    expect((await expectError(await create({ title: "t", targetPath: "../up" }), 400)).code).toBe(
      "path_rejected",
    );
    await t.deps.files.writeFile(t.workspaceId, "Incoming", "a file");
    const inTheWay = await expectError(await create({ title: "t", targetPath: "Incoming/x" }), 400);
    expect(inTheWay.issues[0]).toMatchObject({ field: "targetPath" });
    expect(t.deps.db.prepare("SELECT count(*) AS n FROM portals").get()).toEqual({ n: 0 });
  });

  it("checks scopes: portals:write writes, receipts:read reads only", async () => {
    const reader = t.keyWith(["receipts:read"]);
    expect((await expectError(await create({ title: "t" }, reader), 403)).code).toBe("forbidden");
    const p = await expectBody(await create({ title: "t" }, t.keyWith(["portals:write"])), 201);
    expect(await expectBody(await api(reader).portals.$get({ param: t.ws }), 200)).toHaveLength(1);
    await expectBody(
      await api(reader).portals[":portalId"].$get({ param: { ...t.ws, portalId: p.id } }),
      200,
    );
    const files = t.keyWith(["files:read"]);
    expect((await expectError(await api(files).portals.$get({ param: t.ws }), 403)).code).toBe(
      "forbidden",
    );
    expect(
      (await expectError(await api(null as never).portals.$get({ param: t.ws }), 401)).code,
    ).toBe("unauthenticated");
  });
});

describe("status", () => {
  it("pauses, resumes and revokes exactly per the spec's table; a revoked portal stays revoked", async () => {
    const p = await expectBody(await create({ title: "Dailies" }), 201);
    const one = () => api().portals[":portalId"];
    const param = { ...t.ws, portalId: p.id };
    const patch = (json: Record<string, unknown>) => one().$patch({ param, json: json as never });
    expect((await expectBody(await patch({ status: "paused" }), 200)).status).toBe("paused");
    expect((await expectBody(await patch({ status: "active" }), 200)).status).toBe("active");
    expect((await expectError(await patch({ status: "revoked" }), 400)).code).toBe(
      "validation_failed",
    );
    const revoked = await one().$delete({ param });
    expect(revoked.status).toBe(204);
    expect(await revoked.text()).toBe("");
    expect((await one().$delete({ param })).status).toBe(204);
    const resumed = await expectError(await patch({ status: "active" }), 400);
    expect(resumed.issues[0]!.code).toBe("revoked");
    expect((await expectBody(await one().$get({ param }), 200)).status).toBe("revoked");
    expect(events("portal.revoked")).toEqual([]);
    expect(
      (await expectError(await one().$get({ param: { ...t.ws, portalId: "nope0000000" } }), 404))
        .code,
    ).toBe("not_found");
  });

  it("updates each member, clears with null, and reports expiry", async () => {
    const p = await expectBody(await create({ title: "Dailies", password: "password1" }), 201);
    const param = { ...t.ws, portalId: p.id };
    const u = await expectBody(
      await api().portals[":portalId"].$patch({
        param,
        json: {
          title: "Dailies, week 2",
          message: "New week",
          password: null,
          expiresInDays: 1,
          maxBytesPerUpload: 1000,
          requireEmail: true,
          notifyOnUpload: true,
          projectId: "P1",
          rules: { allowedExtensions: ["wav"] },
          fields: [{ key: "take", label: "Take" }],
          spec: null,
        },
      }),
      200,
    );
    expect(u).toMatchObject({
      title: "Dailies, week 2",
      message: "New week",
      hasPassword: false,
      maxBytesPerUpload: 1000,
      requireEmail: true,
      notifyOnUpload: true,
      projectId: "P1",
      rules: { allowedExtensions: ["wav"], maxFiles: null, namePattern: null },
      fields: [{ key: "take", label: "Take", required: false }],
    });
    clock.advance(2 * DAY);
    const later = await expectBody(await api().portals[":portalId"].$get({ param }), 200);
    expect(later).toMatchObject({ status: "active", expired: true, uploads: [] });
  });
});
