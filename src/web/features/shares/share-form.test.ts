import { describe, expect, it } from "vitest";
import {
  SHARE_EXPIRES_DAYS_MAX,
  SHARE_MAX_DOWNLOADS_MAX,
  SHARE_PASSWORD_MIN,
  SHARE_RECIPIENTS_MAX,
} from "@/contract/rules";
import {
  opensForAnyone,
  parseRecipients,
  type ShareDraft,
  shareBody,
  validateShareDraft,
} from "./share-form";
import { parseSharesSearch } from "./shares-search";

const draft: ShareDraft = {
  title: "",
  message: "",
  recipients: "",
  expiresInDays: "7",
  maxDownloads: "",
  password: "",
  openLink: false,
};
const problemsOf = (change: Partial<ShareDraft>) =>
  Object.fromEntries(
    Object.entries(validateShareDraft({ ...draft, ...change })).filter(([, v]) => v),
  );

describe("share form", () => {
  it("reads recipients separated any way, lowercased, each once", () => {
    expect(parseRecipients(" A@x.io, b@x.io;a@X.io\nc@x.io ")).toEqual([
      "a@x.io",
      "b@x.io",
      "c@x.io",
    ]);
  });

  it("accepts the defaults and the contract's bounds, refusing just past them", () => {
    expect(problemsOf({})).toEqual({});
    expect(problemsOf({ expiresInDays: String(SHARE_EXPIRES_DAYS_MAX) })).toEqual({});
    expect(Object.keys(problemsOf({ expiresInDays: String(SHARE_EXPIRES_DAYS_MAX + 1) }))).toEqual([
      "expiresInDays",
    ]);
    expect(Object.keys(problemsOf({ expiresInDays: "0" }))).toEqual(["expiresInDays"]);
    expect(Object.keys(problemsOf({ expiresInDays: "1.5" }))).toEqual(["expiresInDays"]);
    expect(problemsOf({ maxDownloads: String(SHARE_MAX_DOWNLOADS_MAX) })).toEqual({});
    expect(Object.keys(problemsOf({ maxDownloads: "0" }))).toEqual(["maxDownloads"]);
    expect(problemsOf({ password: "x".repeat(SHARE_PASSWORD_MIN) })).toEqual({});
    expect(Object.keys(problemsOf({ password: "x".repeat(SHARE_PASSWORD_MIN - 1) }))).toEqual([
      "password",
    ]);
    const many = Array.from({ length: SHARE_RECIPIENTS_MAX + 1 }, (_, i) => `p${i}@x.io`);
    expect(problemsOf({ recipients: many.slice(1).join(",") })).toEqual({});
    expect(Object.keys(problemsOf({ recipients: many.join(",") }))).toEqual(["recipients"]);
    expect(problemsOf({ recipients: "a@x.io, nobody" }).recipients).toContain("“nobody”");
  });

  it("leaves empty optional members out of the request", () => {
    expect(shareBody(["a.mov"], { ...draft, recipients: "A@x.io" })).toEqual({
      paths: ["a.mov"],
      title: undefined,
      message: undefined,
      recipients: ["a@x.io"],
      expiresInDays: 7,
      maxDownloads: undefined,
      password: undefined,
      openLink: false,
    });
  });

  it("asks for the open link beside personal links only when ticked; without recipients it is the link", () => {
    const withAna = { ...draft, recipients: "ana@x.io" };
    expect(shareBody(["a.mov"], withAna).openLink).toBe(false);
    expect(shareBody(["a.mov"], { ...withAna, openLink: true }).openLink).toBe(true);
    expect(shareBody(["a.mov"], draft).openLink).toBe(true);
    expect(opensForAnyone(draft)).toBe(true);
    expect(opensForAnyone(withAna)).toBe(false);
  });
});

describe("shares search", () => {
  it("keeps the contract's filters and drops anything else", () => {
    expect(
      parseSharesSearch({
        status: "revoked",
        expiringWithinDays: "3",
        neverOpened: "true",
        recipient: " Ann@X.io ",
      }),
    ).toEqual({
      status: "revoked",
      expiringWithinDays: 3,
      neverOpened: true,
      recipient: "ann@x.io",
      outbox: undefined,
    });
    expect(parseSharesSearch({ status: "gone", expiringWithinDays: 0, neverOpened: 1 })).toEqual(
      {},
    );
  });
});
