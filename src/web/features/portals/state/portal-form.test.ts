import { describe, expect, it } from "vitest";
import { ApiError } from "@/browser/api-error";
import { namePatternProblem as re2 } from "@/contract/name-pattern";
import {
  PORTAL_EXPIRES_DAYS_MAX,
  PORTAL_FIELDS_MAX,
  PORTAL_INVITES_MAX,
  PORTAL_MAX_BYTES_MAX,
  PORTAL_NAME_PATTERN_MAX,
  PORTAL_PASSWORD_MIN,
  PORTAL_TITLE_MAX,
} from "@/contract/portal-rules";
import type { Portal } from "@/contract/portals";
import { problemsFrom } from "@/web/lib/use-async-submit";
import {
  bytesToSize,
  draftFromPortal,
  emptyPortalDraft,
  type FieldDraft,
  fromLocalInput,
  keyFromLabel,
  type PortalDraft,
  parsePhones,
  portalFormFields,
  sizeToBytes,
  toLocalInput,
} from "./portal-draft";
import { fieldRowProblems, namePatternProblem, validatePortalDraft } from "./portal-form-check";
import {
  createPortalBody,
  formFieldOfIssue,
  updatePortalBody,
  withFormFields,
} from "./portal-requests";

const NOW = Date.parse("2026-06-01T12:00:00Z");
const draft = (change: Partial<PortalDraft> = {}): PortalDraft => ({
  ...emptyPortalDraft(),
  title: "Dailies",
  ...change,
});
const problemsOf = (change: Partial<PortalDraft>, original?: Portal) =>
  Object.fromEntries(
    Object.entries(validatePortalDraft(draft(change), NOW, original, re2)).filter(([, v]) => v),
  );
const field = (key: string, label = "Label"): FieldDraft => ({
  id: 0,
  key,
  label,
  required: false,
  keyEdited: true,
});

const portal: Portal = {
  id: "01jz0000000000000000000001",
  slug: "abc",
  url: "https://x.test/p/abc",
  title: "Dailies",
  message: null,
  targetPath: "Incoming",
  requireEmail: false,
  hasPassword: true,
  maxBytesPerUpload: 2_000_000_000,
  expiresAt: "2026-07-01T00:00:00.000Z",
  notifyOnUpload: false,
  notifySender: { approved: false, rejected: true },
  status: "active",
  uploadCount: 0,
  bytesReceived: 0,
  createdAt: "2026-05-01T00:00:00.000Z",
  expired: false,
  awaitingReview: 0,
  projectId: null,
  dueAt: "2026-06-10T09:30:00.000Z",
  fields: [{ key: "shot", label: "Shot", required: true }],
  rules: { allowedExtensions: ["mov"], maxFiles: null, namePattern: null },
  spec: null,
  approvedPath: null,
  invites: { emails: [], phones: [] },
  updatedAt: "2026-05-01T00:00:00.000Z",
  revokedAt: null,
  lastUploadAt: null,
};

describe("portal form validation", () => {
  it("accepts a title alone and the contract's bounds, refusing just past them", () => {
    expect(problemsOf({})).toEqual({});
    expect(Object.keys(problemsOf({ title: "  " }))).toEqual(["title"]);
    expect(problemsOf({ title: "x".repeat(PORTAL_TITLE_MAX) })).toEqual({});
    expect(Object.keys(problemsOf({ title: "x".repeat(PORTAL_TITLE_MAX + 1) }))).toEqual(["title"]);
    expect(problemsOf({ password: "x".repeat(PORTAL_PASSWORD_MIN) })).toEqual({});
    expect(Object.keys(problemsOf({ password: "short" }))).toEqual(["password"]);
    expect(problemsOf({ expiry: "days", expiresInDays: String(PORTAL_EXPIRES_DAYS_MAX) })).toEqual(
      {},
    );
    expect(
      Object.keys(
        problemsOf({ expiry: "days", expiresInDays: String(PORTAL_EXPIRES_DAYS_MAX + 1) }),
      ),
    ).toEqual(["expiresInDays"]);
    // Not asked for: the days box is ignored.
    expect(problemsOf({ expiry: "never", expiresInDays: "0" })).toEqual({});
    expect(Object.keys(problemsOf({ maxFiles: "0" }))).toEqual(["maxFiles"]);
    expect(problemsOf({ maxFiles: "10000" })).toEqual({});
  });

  it("reads the size with its unit and holds it to the contract's largest", () => {
    expect(sizeToBytes("1.5", "GB")).toBe(1_500_000_000);
    expect(sizeToBytes("250", "MB")).toBe(250_000_000);
    expect(sizeToBytes(" ", "MB")).toBeNull();
    expect(sizeToBytes("1e3", "MB")).toBeNaN();
    expect(Object.keys(problemsOf({ maxSize: "abc" }))).toEqual(["maxSize"]);
    expect(Object.keys(problemsOf({ maxSize: "0" }))).toEqual(["maxSize"]);
    const maxGb = Math.floor(PORTAL_MAX_BYTES_MAX / 1e9);
    expect(problemsOf({ maxSize: String(maxGb), maxSizeUnit: "GB" })).toEqual({});
    expect(problemsOf({ maxSize: String(maxGb + 1), maxSizeUnit: "GB" }).maxSize).toContain("GB");
    expect(bytesToSize(3_000_000_000)).toEqual({ value: "3", unit: "GB" });
    expect(bytesToSize(1_234_567_890)).toEqual({ value: "1234.56789", unit: "MB" });
    expect(sizeToBytes("1234.56789", "MB")).toBe(1_234_567_890);
  });

  it("checks paths with the contract's path rule", () => {
    expect(Object.keys(problemsOf({ targetPath: "/abs" }))).toEqual(["targetPath"]);
    expect(Object.keys(problemsOf({ approvedPath: "a//b" }))).toEqual(["approvedPath"]);
    expect(problemsOf({ targetPath: "Incoming/Dailies", approvedPath: "Approved" })).toEqual({});
  });

  it("checks invites only when creating, each address and number, and their count", () => {
    expect(problemsOf({ inviteEmails: "a@x.io, nobody" }).inviteEmails).toContain("“nobody”");
    expect(problemsOf({ invitePhones: "+44 7700 900123\n+1 (555) 010-9999" })).toEqual({});
    expect(Object.keys(problemsOf({ invitePhones: "07700900123" }))).toEqual(["invitePhones"]);
    const many = Array.from({ length: PORTAL_INVITES_MAX + 1 }, (_, i) => `p${i}@x.io`).join(" ");
    expect(Object.keys(problemsOf({ inviteEmails: many }))).toEqual(["inviteEmails"]);
    expect(problemsOf({ inviteEmails: "nobody" }, portal)).toEqual({});
  });

  it("refuses bad, duplicate or too many custom fields, naming the row", () => {
    expect(problemsOf({ fields: [field("shot"), field("take")] })).toEqual({});
    expect(problemsOf({ fields: [field("shot"), field("shot")] }).fields).toBe(
      "Field 1: Another field has this key.",
    );
    expect(problemsOf({ fields: [field("Shot")] }).fields).toContain("Field 1:");
    expect(problemsOf({ fields: [field("shot", " ")] }).fields).toBe(
      "Field 1: Give the field a label.",
    );
    const fields = Array.from({ length: PORTAL_FIELDS_MAX + 1 }, (_, i) => field(`f${i}`));
    expect(problemsOf({ fields }).fields).toBe(`At most ${PORTAL_FIELDS_MAX} fields.`);
    expect(fieldRowProblems([field("a"), field("a"), field("b")]).map((r) => !!r.key)).toEqual([
      true,
      true,
      false,
    ]);
  });

  it("makes keys from labels", () => {
    expect(keyFromLabel("Shot number")).toBe("shot_number");
    expect(keyFromLabel("  2nd Camera Operator! ")).toBe("nd_camera_operator");
    expect(keyFromLabel("Réalisateur")).toBe("realisateur");
    expect(keyFromLabel("x".repeat(60))).toHaveLength(40);
  });

  it("checks rules, the name pattern and the spec", () => {
    expect(problemsOf({ allowedExtensions: ".MOV, mp4 mxf" })).toEqual({});
    expect(problemsOf({ allowedExtensions: "tar.gz" }).allowedExtensions).toContain("“tar.gz”");
    expect(namePatternProblem("^A\\d{3}_.*$", re2)).toBeUndefined();
    // The service's rule: RE2 syntax a browser's RegExp cannot read is a pattern the service takes.
    expect(namePatternProblem("(?P<take>\\d+)\\.mov", re2)).toBeUndefined();
    expect(problemsOf({ namePattern: "(?P<take>\\d+)\\.mov" })).toEqual({});
    expect(namePatternProblem("(unclosed", re2)).toMatch(/^Not an RE2 regular expression: /);
    expect(namePatternProblem("^(?!tmp).*", re2)).toMatch(/RE2/);
    expect(namePatternProblem("x".repeat(PORTAL_NAME_PATTERN_MAX + 1), re2)).toBe(
      `At most ${PORTAL_NAME_PATTERN_MAX} characters.`,
    );
    // Before the rule has loaded the service judges the pattern; its length is still held.
    expect(namePatternProblem("(unclosed", null)).toBeUndefined();
    expect(problemsOf({ specContainers: "!!" })).toEqual({});
    expect(Object.keys(problemsOf({ specEnabled: true }))).toEqual(["specName"]);
    expect(
      problemsOf({ specEnabled: true, specName: "ProRes", specContainers: "mov, MP4" }),
    ).toEqual({});
    expect(
      Object.keys(
        problemsOf({ specEnabled: true, specName: "ProRes", specVideoCodecs: "pro res!" }),
      ),
    ).toEqual(["specVideoCodecs"]);
  });

  it("wants a due date in the future unless it is the one already set", () => {
    expect(Object.keys(problemsOf({ dueAt: "2020-01-01T10:00" }))).toEqual(["dueAt"]);
    expect(Object.keys(problemsOf({ dueAt: "tomorrow" }))).toEqual(["dueAt"]);
    expect(problemsOf({ dueAt: "2030-01-01T10:00" })).toEqual({});
    const pastDue = { ...portal, dueAt: "2026-05-01T09:00:00.000Z" };
    expect(problemsOf({ dueAt: toLocalInput(pastDue.dueAt) }, pastDue)).toEqual({});
  });
});

describe("portal requests", () => {
  it("creates with empty optional members left out and lists parsed", () => {
    const body = createPortalBody(
      draft({
        message: "  ",
        targetPath: " Incoming ",
        maxSize: "2",
        expiry: "days",
        expiresInDays: "14",
        inviteEmails: "A@x.io; a@x.io b@x.io",
        invitePhones: "+44 7700 900123",
        fields: [{ id: 1, key: "shot", label: " Shot ", required: true, keyEdited: false }],
        allowedExtensions: ".MOV mov",
        specEnabled: true,
        specName: "ProRes",
        specContainers: "MOV",
      }),
    );
    expect(body).toEqual({
      title: "Dailies",
      message: undefined,
      targetPath: "Incoming",
      requireEmail: false,
      password: undefined,
      maxBytesPerUpload: 2_000_000_000,
      expiresInDays: 14,
      notifyOnUpload: false,
      notifySender: { approved: false, rejected: true },
      projectId: undefined,
      dueAt: undefined,
      inviteEmails: ["a@x.io", "b@x.io"],
      invitePhones: ["+447700900123"],
      fields: [{ key: "shot", label: "Shot", required: true }],
      rules: { allowedExtensions: ["mov"], maxFiles: null, namePattern: null },
      spec: { name: "ProRes", containers: ["mov"], videoCodecs: [] },
      approvedPath: null,
    });
  });

  it("edits by sending only what changed", () => {
    const unchanged = draftFromPortal(portal);
    expect(updatePortalBody(unchanged, portal)).toEqual({});
    expect(validatePortalDraft(unchanged, NOW, portal)).toEqual(
      expect.not.objectContaining({ title: expect.any(String) }),
    );
    expect(
      updatePortalBody(
        {
          ...unchanged,
          title: "Dailies 2",
          message: "Hello",
          maxSize: "",
          expiry: "never",
          removePassword: true,
          namePattern: "^A",
          dueAt: "",
          notifySender: { approved: true, rejected: true },
        },
        portal,
      ),
    ).toEqual({
      title: "Dailies 2",
      notifySender: { approved: true, rejected: true },
      message: "Hello",
      maxBytesPerUpload: null,
      expiresInDays: null,
      password: null,
      rules: { allowedExtensions: ["mov"], maxFiles: null, namePattern: "^A" },
      dueAt: null,
    });
    expect(updatePortalBody({ ...unchanged, password: "new secret!" }, portal)).toEqual({
      password: "new secret!",
    });
    expect(
      updatePortalBody({ ...unchanged, specEnabled: true, specName: "H.264" }, portal),
    ).toEqual({ spec: { name: "H.264", containers: [], videoCodecs: [] } });
    expect(updatePortalBody({ ...unchanged, expiry: "days", expiresInDays: "3" }, portal)).toEqual({
      expiresInDays: 3,
    });
  });

  it("round-trips local date inputs", () => {
    const iso = fromLocalInput("2026-06-10T09:30");
    expect(iso).not.toBeNull();
    expect(toLocalInput(iso!)).toBe("2026-06-10T09:30");
    expect(fromLocalInput("")).toBeNull();
  });

  it("parses phone numbers typed with punctuation", () => {
    expect(parsePhones("+44 (0) 20-7946.0958\n+44 (0) 20-7946.0958, +15550100")).toEqual([
      "+4402079460958",
      "+15550100",
    ]);
  });
});

describe("service issues", () => {
  it("lands each issue on the field that shows it", () => {
    expect(formFieldOfIssue("rules.allowedExtensions.2")).toBe("allowedExtensions");
    expect(formFieldOfIssue("rules.namePattern")).toBe("namePattern");
    expect(formFieldOfIssue("spec.videoCodecs.0")).toBe("specVideoCodecs");
    expect(formFieldOfIssue("fields.3.key")).toBe("fields");
    expect(formFieldOfIssue("maxBytesPerUpload")).toBe("maxSize");
    expect(formFieldOfIssue("inviteEmails.0")).toBe("inviteEmails");
    expect(formFieldOfIssue("body.title")).toBe("title");
    expect(formFieldOfIssue("status")).toBeNull();
  });

  it("renames the issues so the form's submit puts them beside their controls", () => {
    const refused = new ApiError(400, "validation_failed", "Invalid", {
      issues: [
        { field: "rules.namePattern", message: "Not RE2", code: "custom" },
        { field: "spec.name", message: "Too long", code: "too_big" },
      ],
    });
    expect(problemsFrom(withFormFields(refused), portalFormFields)).toEqual({
      namePattern: "Not RE2",
      specName: "Too long",
    });
    const other = new Error("boom");
    expect(withFormFields(other)).toBe(other);
  });
});
