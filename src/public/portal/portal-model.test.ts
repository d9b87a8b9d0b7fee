import { beforeAll, describe, expect, it } from "vitest";
import type { PortalConfirmation, PublicPortal } from "@/contract/portal-public";
import { loadNameMatcher, type NameMatches } from "./name-pattern";
import {
  addPicked,
  checkSelection,
  confirmationFileName,
  confirmationText,
  emptySender,
  matchesDeclared,
  type Picked,
  placeIssues,
  rateText,
  rulesSummary,
  specSummary,
  uploadBody,
  validateSender,
} from "./portal-model";
import { clearUpload, loadUpload, type StoredUpload, saveUpload } from "./session";

const portal = (over: Partial<PublicPortal> = {}): PublicPortal => ({
  title: "Dailies",
  message: null,
  workspaceName: "Northlight",
  state: "open",
  passwordRequired: false,
  requireEmail: false,
  fields: [],
  rules: { allowedExtensions: [], maxFiles: null, namePattern: null },
  maxBytesPerUpload: null,
  spec: null,
  expiresAt: null,
  dueAt: null,
  ...over,
});

const GB = 1_000_000_000;

describe("rulesSummary", () => {
  it("says every rule before a file is picked", () => {
    const p = portal({
      rules: { allowedExtensions: ["mov", "mp4"], maxFiles: 10, namePattern: "[A-Z]{3}_\\d+" },
      maxBytesPerUpload: 2 * GB,
    });
    expect(rulesSummary(p).join(" · ")).toBe(
      "Accepted: .mov, .mp4 · up to 10 files · names like [A-Z]{3}_\\d+ · up to 2.0 GB per upload",
    );
  });

  it("says any file goes when nothing is ruled", () => {
    expect(rulesSummary(portal())).toEqual(["Any type of file"]);
    expect(
      rulesSummary(portal({ rules: { allowedExtensions: [], maxFiles: 1, namePattern: null } })),
    ).toEqual(["Any type of file", "up to 1 file"]);
  });

  it("describes the media spec as checked after upload", () => {
    expect(specSummary(null)).toBeNull();
    expect(
      specSummary({ name: "ProRes 422 HQ", containers: ["mov"], videoCodecs: ["prores"] }),
    ).toBe("ProRes 422 HQ · containers: mov · video codecs: prores (checked after upload)");
    expect(specSummary({ name: "Anything", containers: [], videoCodecs: [] })).toBe(
      "Anything (checked after upload)",
    );
  });
});

describe("checkSelection", () => {
  let matches: NameMatches;
  beforeAll(async () => {
    matches = await loadNameMatcher();
  });
  const rules = portal({
    rules: { allowedExtensions: ["mov"], maxFiles: 2, namePattern: "shot_\\d+\\.mov" },
    maxBytesPerUpload: 100,
  });

  it("refuses each file that breaks a rule, by path", () => {
    const check = checkSelection(
      rules,
      [
        { path: "shots/shot_1.mov", size: 10 },
        { path: "notes.txt", size: 1 },
      ],
      matches,
    );
    expect(check.ok).toBe(false);
    expect(check.files.get("notes.txt")?.code).toBe("extension_not_allowed");
    expect(check.files.has("shots/shot_1.mov")).toBe(false);
    expect(check.bytes).toBe(11);
  });

  it("checks the name against the pattern and the size against the limit", () => {
    const check = checkSelection(
      rules,
      [
        { path: "take.mov", size: 1 },
        { path: "shot_2.mov", size: 101 },
      ],
      matches,
    );
    expect(check.files.get("take.mov")?.code).toBe("name_not_allowed");
    expect(check.files.get("shot_2.mov")?.code).toBe("too_large");
  });

  it("holds the whole upload to the count and byte limits", () => {
    const three = [1, 2, 3].map((n) => ({ path: `shot_${n}.mov`, size: 10 }));
    expect(checkSelection(rules, three, matches).upload?.code).toBe("too_many_files");
    const heavy = [1, 2].map((n) => ({ path: `shot_${n}.mov`, size: 60 }));
    expect(checkSelection(rules, heavy, matches).upload?.code).toBe("too_large");
    expect(checkSelection(rules, [], matches).upload?.code).toBe("no_files");
    expect(checkSelection(rules, three.slice(0, 2), matches).ok).toBe(true);
  });

  it("caps a portal without a count rule at what one request may list", () => {
    const many = Array.from({ length: 10_001 }, (_, i) => ({ path: `f${i}`, size: 0 }));
    expect(checkSelection(portal(), many, matches).upload?.code).toBe("too_many_files");
  });
});

describe("addPicked", () => {
  const file = (name: string, size = 1) => new File([new Uint8Array(size)], name);
  it("replaces a file picked again at the same path, keeping the first order", () => {
    const a: Picked = { file: file("a"), path: "x/a" };
    const b: Picked = { file: file("b"), path: "b" };
    const a2: Picked = { file: file("a", 5), path: "x/a" };
    const next = addPicked([a, b], [a2]);
    expect(next.map((p) => p.path)).toEqual(["x/a", "b"]);
    expect(next[0]!.file.size).toBe(5);
  });
});

describe("validateSender", () => {
  const p = portal({
    requireEmail: true,
    fields: [
      { key: "client", label: "Client", required: true },
      { key: "po", label: "PO number", required: false },
    ],
  });

  it("asks for the email and the required fields before sending", () => {
    const errors = validateSender(p, emptySender());
    expect([...errors.keys()]).toEqual(["email", "field:client"]);
  });

  it("catches a mistyped address even when the email is optional", () => {
    const errors = validateSender(portal(), { ...emptySender(), email: "me@localhost" });
    expect(errors.get("email")).toMatch(/like name@example.com/);
  });

  it("accepts a filled-in form", () => {
    const v = { ...emptySender(), email: "ana@example.com", fields: { client: " ACME " } };
    expect(validateSender(p, v).size).toBe(0);
  });
});

describe("uploadBody", () => {
  it("leaves out what was not filled in and trims what was", () => {
    expect(
      uploadBody(
        {
          name: "  ",
          email: " ana@example.com ",
          message: "",
          fields: { client: " ACME ", po: " " },
        },
        [{ path: "a.mov", size: 3 }],
      ),
    ).toEqual({
      senderEmail: "ana@example.com",
      fields: { client: "ACME" },
      files: [{ path: "a.mov", size: 3 }],
    });
  });
});

describe("placeIssues", () => {
  it("puts each refusal beside what it is about", () => {
    const sent = [{ path: "a.mov" }, { path: "shots/b.mov" }];
    const placed = placeIssues(
      [
        { field: "senderEmail", message: "Expected an email address", code: "invalid_format" },
        { field: "fields.client", message: "Required", code: "required" },
        { field: "files.1.path", message: "b.mov: not accepted", code: "extension_not_allowed" },
        { field: "files", message: "Too many", code: "too_many_files" },
        { field: "body", message: "An email is required", code: "email_required" },
      ],
      sent,
    );
    expect(placed.form.get("email")).toBe("An email is required");
    expect(placed.form.get("field:client")).toBe("Required");
    expect(placed.files.get("shots/b.mov")).toBe("b.mov: not accepted");
    expect(placed.other).toEqual(["Too many"]);
  });
});

describe("rateText", () => {
  it("says the rate and the time left", () => {
    expect(rateText({ rate: null, etaSeconds: null })).toBe("");
    expect(rateText({ rate: 2_000_000, etaSeconds: 200 })).toBe("2.0 MB/s · about 3 min 20 s left");
    expect(rateText({ rate: 2_000_000, etaSeconds: 0 })).toBe("2.0 MB/s");
    expect(rateText({ rate: 0, etaSeconds: null })).toBe("0 B/s");
  });
});

describe("matchesDeclared", () => {
  const declared = { path: "shots/a.mov", size: 10, lastModified: 5 };
  it("finds a file picked again at its path or a tail of it", () => {
    expect(matchesDeclared(declared, { path: "shots/a.mov", size: 10, lastModified: 5 })).toBe(
      true,
    );
    expect(matchesDeclared(declared, { path: "a.mov", size: 10, lastModified: 5 })).toBe(true);
    expect(
      matchesDeclared(declared, { path: "delivery/shots/a.mov", size: 10, lastModified: 5 }),
    ).toBe(true);
  });
  it("refuses another file or one changed since", () => {
    expect(matchesDeclared(declared, { path: "b.mov", size: 10, lastModified: 5 })).toBe(false);
    expect(matchesDeclared(declared, { path: "a.mov", size: 11, lastModified: 5 })).toBe(false);
    expect(matchesDeclared(declared, { path: "a.mov", size: 10, lastModified: 6 })).toBe(false);
    expect(matchesDeclared(declared, { path: "xa.mov", size: 10, lastModified: 5 })).toBe(false);
  });
});

describe("the confirmation", () => {
  const c: PortalConfirmation = {
    uploadId: "pu_1",
    reference: "K7Q2-X9",
    portalTitle: "Dailies",
    workspaceName: "Northlight",
    files: [
      { path: "shots/a.mov", size: 1_500, sha256: "a".repeat(64) },
      { path: "b.mov", size: 20, sha256: "b".repeat(64) },
    ],
    fileCount: 3,
    bytes: 1_530,
    completedAt: "2026-03-01T10:00:00.000Z",
    senderEmail: "ana@example.com",
    statusUrl: "https://x.test/p/dailies/status/pu_1#token",
  };

  it("is a text the sender keeps, with every file's size and checksum", () => {
    const text = confirmationText(c, { "shots/a.mov": "A".repeat(64), "b.mov": "c".repeat(64) });
    expect(text).toContain("Reference:   K7Q2-X9");
    expect(text).toContain("Sent to:     Northlight");
    expect(text).toContain("From:        ana@example.com");
    expect(text).toContain("Files:       3 (1.5 KB, 1530 bytes)");
    expect(text).toContain(`shots/a.mov\n  1500 bytes (1.5 KB)\n  SHA-256 ${"a".repeat(64)}`);
    expect(text).toContain("Matches the file this browser sent");
    expect(text).toContain("Differs from the file this browser read");
    expect(text).toContain("… and 1 more files");
    expect(text.endsWith("\n")).toBe(true);
  });

  it("is saved under a name made of its reference", () => {
    expect(confirmationFileName(c)).toBe("upload-confirmation-K7Q2-X9.txt");
    expect(confirmationFileName({ reference: "a/b c" })).toBe("upload-confirmation-a-b-c.txt");
  });
});

describe("the stored upload", () => {
  class MemoryStorage implements Storage {
    private items = new Map<string, string>();
    get length() {
      return this.items.size;
    }
    clear() {
      this.items.clear();
    }
    getItem(key: string) {
      return this.items.get(key) ?? null;
    }
    key(i: number) {
      return [...this.items.keys()][i] ?? null;
    }
    removeItem(key: string) {
      this.items.delete(key);
    }
    setItem(key: string, value: string) {
      this.items.set(key, value);
    }
  }

  it("survives a reload and leaves with its tus URLs, and no one else's", () => {
    const storage = new MemoryStorage();
    const stored = {
      uploadId: "pu_1",
      spec: {},
      files: [{ path: "a.mov", size: 1, lastModified: 2, done: false, sha256: null }],
      startedAt: 3,
    } as unknown as StoredUpload;
    saveUpload("dailies", stored, storage);
    storage.setItem("tus::consign-portal:pu_1:a.mov:1:2::123", "{}");
    storage.setItem("tus::consign-portal:pu_2:a.mov:1:2::456", "{}");
    expect(loadUpload("dailies", storage)).toEqual(stored);
    clearUpload("dailies", "pu_1", storage);
    expect(loadUpload("dailies", storage)).toBeNull();
    expect(storage.length).toBe(1);
    expect(storage.key(0)).toBe("tus::consign-portal:pu_2:a.mov:1:2::456");
  });

  it("reads a damaged entry as none", () => {
    const storage = new MemoryStorage();
    storage.setItem("consign-portal-upload:dailies", "{not json");
    expect(loadUpload("dailies", storage)).toBeNull();
  });
});
