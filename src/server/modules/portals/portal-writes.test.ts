import { describe, expect, it } from "vitest";
import { updatePortalBodySchema } from "@/contract/portals";
import { caller, createBody, drawn, ENGINES, events, NOW } from "./portals-store.engines";
import { caught, WS } from "./portals-store.seed";

describe.each(ENGINES)("creating and changing portals on $engine", ({ use }) => {
  const open = use();

  it("creates a portal with its invitations and event, and refuses a file in the way or a bad pattern", async () => {
    const e = open();
    const made = await e.store.createPortal(caller, createBody());
    expect(drawn(made)).toMatchObject({
      title: "Grade Notes",
      targetPath: "Incoming/notes",
      status: "active",
      awaitingReview: 0,
      invites: { emails: ["a@x.test", "b@x.test"], phones: ["+15550001"] },
      createdAt: new Date(NOW).toISOString(),
    });
    expect(made.url).toBe(`https://c.test/p/${made.slug}`);
    expect(await e.store.getPortal(WS, made.id, "https://c.test")).toEqual({
      ...made,
      uploads: [],
    });
    expect(
      await e.rows(
        `SELECT channel, to_address, subject, status, error FROM mail_outbox WHERE portal_id = '${made.id}' ORDER BY to_address`,
      ),
    ).toEqual([
      {
        channel: "sms",
        to_address: "+15550001",
        subject: "Studio Ö: Grade Notes",
        status: "waiting",
        error: "Not sent: no SMS provider is configured",
      },
      {
        channel: "email",
        to_address: "a@x.test",
        subject: "Studio Ö: Grade Notes",
        status: "waiting",
        error: null,
      },
      {
        channel: "email",
        to_address: "b@x.test",
        subject: "Studio Ö: Grade Notes",
        status: "waiting",
        error: null,
      },
    ]);
    expect((await events(e)).at(-1)).toEqual({
      type: "portal.created",
      data: {
        portalId: made.id,
        slug: made.slug,
        title: "Grade Notes",
        targetPath: "Incoming/notes",
      },
    });
    const before = await events(e);
    expect(
      await caught(
        e.store.createPortal(caller, createBody({ approvedPath: "Incoming/1 Ann/a.txt/in" })),
      ),
    ).toMatchObject({
      status: 400,
      details: {
        issues: [
          {
            field: "approvedPath",
            message: '"Incoming/1 Ann/a.txt" is a file, not a folder',
            code: "file_in_the_way",
          },
        ],
      },
    });
    expect(
      await caught(e.store.createPortal(caller, createBody({ rules: { namePattern: "(" } }))),
    ).toMatchObject({ status: 400, details: { issues: [{ code: "invalid_pattern" }] } });
    expect(await events(e)).toEqual(before);
  });

  it("changes the members given, and refuses an unknown, a revoked portal and a file in the way", async () => {
    const e = open();
    const changed = await e.store.updatePortal(
      WS,
      "p1",
      updatePortalBodySchema.parse({
        title: "Dailies 2",
        status: "paused",
        expiresInDays: 2,
        message: null,
      }),
      "https://c.test",
    );
    expect(changed).toMatchObject({
      id: "p1",
      title: "Dailies 2",
      status: "paused",
      message: null,
      expiresAt: new Date(NOW + 2 * 86_400_000).toISOString(),
      updatedAt: new Date(NOW).toISOString(),
      approvedPath: "Approved",
    });
    expect((await e.store.listPortals(WS, "https://c.test")).find((p) => p.id === "p1")).toEqual(
      changed,
    );
    const refusals = [
      await caught(e.store.updatePortal(WS, "nope", { title: "x" }, "o")),
      await caught(e.store.updatePortal(WS, "p4", { title: "x" }, "o")),
      await caught(e.store.updatePortal(WS, "p2", { approvedPath: "Incoming/1 Ann/a.txt" }, "o")),
    ];
    expect(
      refusals.map((r) => [
        r.status,
        r.code,
        (r.details?.issues as { code: string }[] | undefined)?.[0]?.code,
      ]),
    ).toEqual([
      [404, "not_found", undefined],
      [400, "validation_failed", "revoked"],
      [400, "validation_failed", "file_in_the_way"],
    ]);
  });
});
