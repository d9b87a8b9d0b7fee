import { describe, expect, it } from "vitest";
import type { Event } from "@/contract/events";
import { eventPaths, eventSummary } from "./event-summary";

const event = (type: string, data: Record<string, unknown>) =>
  ({ id: "01j", type, createdAt: "2026-05-10T12:00:00Z", data }) as Event;

describe("eventSummary", () => {
  it("names a file event's path, and counts the others of the same request", () => {
    expect(eventSummary(event("file.updated", { paths: ["Projects/notes.pdf"] }))).toBe(
      "Projects/notes.pdf",
    );
    const trashed = event("file.trashed", { paths: ["A/old", "A/draft.mov", "A/b"], itemIds: [] });
    expect(eventSummary(trashed)).toBe("A/old and 2 more");
  });

  it("shows both ends of a rename, and of a restore that had to take another name", () => {
    const renamed = event("file.renamed", { paths: ["A/v4"], from: "A/v3", to: "A/v4" });
    expect(eventSummary(renamed)).toBe("A/v3 → A/v4");
    const restored = event("file.restored", {
      paths: ["A/draft (restored).mov"],
      originalPath: "A/draft.mov",
      renamed: true,
      itemId: "x",
    });
    expect(eventSummary(restored)).toBe("A/draft.mov → A/draft (restored).mov");
    const inPlace = event("file.restored", {
      paths: ["A/draft.mov"],
      originalPath: "A/draft.mov",
      renamed: false,
      itemId: "x",
    });
    expect(eventSummary(inPlace)).toBe("A/draft.mov");
  });

  it("falls back to the members other types carry", () => {
    expect(eventSummary(event("webhook.test", { message: "A test" }))).toBe("A test");
    expect(eventSummary(event("member.joined", { member: { email: "a@b.c" } }))).toBe("a@b.c");
    expect(eventSummary(event("job.done", {}))).toBe("");
  });
});

describe("eventPaths", () => {
  it("lists every path of a request, labelled only where the role is not obvious", () => {
    expect(eventPaths(event("file.created", { paths: ["In", "In/a.txt"] }))).toEqual([
      { path: "In" },
      { path: "In/a.txt" },
    ]);
    expect(eventPaths(event("file.renamed", { paths: ["b"], from: "a", to: "b" }))).toEqual([
      { label: "From", path: "a" },
      { label: "To", path: "b" },
    ]);
    expect(eventPaths(event("share.created", { title: "x" }))).toEqual([]);
  });
});
