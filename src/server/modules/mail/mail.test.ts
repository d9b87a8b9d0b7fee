import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "@/server/lib/clock";
import { resolveShareLink } from "@/server/modules/shares/share-access";
import { sharesRouter } from "@/server/modules/shares/shares.index";
import { expectBody, okBody } from "@/server/testing/expect-body";
import { writeFile } from "@/server/testing/files-client";
import { createTestApp, type TestApp } from "@/server/testing/test-app";

/* Share mail through a real SMTP server on a free local port, parsed as a mail client would. */

const received: ParsedMail[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onRcptTo(address, _session, callback) {
    if (address.address.startsWith("bounce"))
      callback(Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 }));
    else callback();
  },
  onData(stream, _session, callback) {
    simpleParser(stream)
      .then((mail) => {
        received.push(mail);
        callback();
      })
      .catch(callback);
  },
});
let smtpUrl = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

let t: TestApp;
let clock: ManualClock;
beforeEach(async () => {
  received.length = 0;
  clock = new ManualClock(Date.parse("2026-06-01T12:00:00Z"));
  t = await createTestApp({
    clock,
    config: {
      smtpUrl,
      mailFrom: "Northlight <deliveries@northlight.test>",
      workspaceName: "Northlight Post",
    },
  });
  await writeFile(t, "Out/a.mov", "alpha");
});
afterEach(() => t.close());

const ws = () => t.client(sharesRouter).workspaces[":workspaceId"];
const outbox = async () => (await okBody(await ws().outbox.$get({ param: t.ws, query: {} }))).items;
const linkIn = (mail: ParsedMail) => /https?:\/\/\S+\/s\/[A-Za-z0-9]+/.exec(mail.text ?? "")![0];
const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);

describe("share mail over SMTP", () => {
  it("mails each recipient their personal link, and forgets the link once sent", async () => {
    const s = await expectBody(
      await ws().shares.$post({
        param: t.ws,
        json: {
          paths: ["Out"],
          title: "Reel 4",
          message: "The final grade",
          password: "open sesame",
          recipients: ["ana@example.com", "bo@example.com"],
        },
      }),
      201,
    );
    expect((await outbox()).map((m) => m.status)).toEqual(["queued", "queued"]);
    await t.deps.jobs.runDue();
    expect(received).toHaveLength(2);
    const byTo = new Map(received.map((m) => [m.to && !Array.isArray(m.to) ? m.to.text : "", m]));
    for (const [i, email] of ["ana@example.com", "bo@example.com"].entries()) {
      const mail = byTo.get(email)!;
      expect(mail.from?.text).toBe('"Northlight" <deliveries@northlight.test>');
      expect(mail.subject).toBe("Northlight Post: Reel 4");
      expect(mail.text).toContain("The final grade");
      expect(mail.text).toContain("The sender will give you the password.");
      expect(mail.text).not.toContain("open sesame");
      const link = linkIn(mail);
      expect(link).toBe(s.recipientLinks[i]!.url);
      expect(resolveShareLink(t.deps.db, tokenOf(link))?.recipientId).toBe(s.recipients[i]!.id);
    }
    const sent = await outbox();
    expect(sent.map((m) => [m.status, m.link, m.attempts])).toEqual([
      ["sent", null, 1],
      ["sent", null, 1],
    ]);
    expect(sent[0]!.text).toContain("[link sent]");
    const share = await okBody(
      await ws().shares[":shareId"].$get({ param: { ...t.ws, shareId: s.id } }),
    );
    expect(share.recipients.map((r) => r.sentAt)).toEqual([
      "2026-06-01T12:00:00.000Z",
      "2026-06-01T12:00:00.000Z",
    ]);
    const receipt = await okBody(
      await ws().shares[":shareId"].receipt.$get({ param: { ...t.ws, shareId: s.id } }),
    );
    expect(receipt.timeline.filter((e) => e.type === "sent").map((e) => e.detail)).toEqual([
      "mailed",
      "mailed",
    ]);

    // resend to one: a new mail with a new personal link for the same recipient
    received.length = 0;
    await okBody(
      await ws().shares[":shareId"].resend.$post({
        param: { ...t.ws, shareId: s.id },
        json: { recipients: ["bo@example.com"] },
      }),
    );
    await t.deps.jobs.runDue();
    expect(received.map((m) => (m.to && !Array.isArray(m.to) ? m.to.text : ""))).toEqual([
      "bo@example.com",
    ]);
    const fresh = linkIn(received[0]!);
    expect(fresh).not.toBe(s.recipientLinks[1]!.url);
    expect(resolveShareLink(t.deps.db, tokenOf(fresh))?.recipientId).toBe(s.recipients[1]!.id);
  });

  it("retries a refused message, then marks it failed and keeps its link", async () => {
    await expectBody(
      await ws().shares.$post({
        param: t.ws,
        json: { paths: ["Out"], recipients: ["bounce@example.com"] },
      }),
      201,
    );
    await t.deps.jobs.runDue();
    let [m] = await outbox();
    expect([m!.status, m!.attempts]).toEqual(["queued", 1]);
    expect(m!.error).toContain("Mailbox unavailable");
    for (let i = 0; i < 6; i++) {
      clock.advance(3_600_000);
      await t.deps.jobs.runDue();
    }
    [m] = await outbox();
    expect([m!.status, m!.attempts]).toEqual(["failed", 6]);
    expect(m!.link).toMatch(/\/s\/[A-Za-z0-9]{32}$/);
    expect(received).toEqual([]);
  });
});
