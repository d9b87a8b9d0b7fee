import { describe, expect, it } from "vitest";
import type { PortalUploadsPage } from "@/contract/portal-review";
import type { PortalUploadStatus } from "@/contract/portal-rules";
import type { Portal, PortalDetail, PortalUpload } from "@/contract/portals";
import {
  decidedLocally,
  placeInDetail,
  placeInPages,
  placeInPortals,
  statusMatches,
  type UploadPages,
} from "../api/review-cache";
import { parsePortalsSearch, portalsSearchParams, reviewSearchFor } from "../portals-search";
import { matchQueueKey } from "../queue-keymap";
import {
  advanceAfterDecision,
  cursorIndex,
  initialQueueState,
  type QueueState,
  queueReducer,
} from "./queue-state";
import {
  approvalRisk,
  changesAnything,
  decisionToast,
  reviewProblem,
  undoFor,
  undoneToast,
} from "./review-undo";

const upload = (id: string, status: PortalUploadStatus = "received", portalId = "p1") =>
  ({
    id,
    senderEmail: "ana@example.com",
    senderName: "Ana",
    message: null,
    folderPath: `Incoming/${id}`,
    fileCount: 1,
    bytesTotal: 10,
    bytesDone: 10,
    status,
    createdAt: "2026-06-01T00:00:00.000Z",
    completedAt: null,
    portalId,
    portalTitle: "Dailies",
    transferId: null,
    fields: {},
    files: [],
    specCheck: { status: "not_required", checkedAt: null, problems: [], files: [] },
    reviewNote: null,
    noteToSender: null,
    reviewedAt: null,
    reviewedBy: null,
  }) satisfies PortalUpload;

const press = (key: string, mods: Partial<Record<"shiftKey" | "ctrlKey", boolean>> = {}) => ({
  key,
  shiftKey: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...mods,
});

describe("queue keys", () => {
  it("maps the triage keys, refusing modified letters", () => {
    expect(matchQueueKey(press("j"), false)).toBe("next");
    expect(matchQueueKey(press("k"), false)).toBe("previous");
    expect(matchQueueKey(press("a"), false)).toBe("approve");
    expect(matchQueueKey(press("A"), false)).toBe("approve"); // Caps Lock
    expect(matchQueueKey(press("A", { shiftKey: true }), false)).toBeNull();
    expect(matchQueueKey(press("a", { ctrlKey: true }), false)).toBeNull();
    expect(matchQueueKey(press("r"), false)).toBe("reject");
    expect(matchQueueKey(press("p"), false)).toBe("pending");
    expect(matchQueueKey(press("o"), false)).toBe("openFolder");
    expect(matchQueueKey(press("?", { shiftKey: true }), false)).toBe("showShortcuts");
    expect(matchQueueKey(press("x"), true)).toBeNull();
  });

  it("takes arrows, Home and End only while the queue has focus", () => {
    expect(matchQueueKey(press("ArrowDown"), false)).toBeNull();
    expect(matchQueueKey(press("ArrowDown"), true)).toBe("next");
    expect(matchQueueKey(press("ArrowUp"), true)).toBe("previous");
    expect(matchQueueKey(press("Home"), true)).toBe("first");
    expect(matchQueueKey(press("End"), true)).toBe("last");
    expect(matchQueueKey(press("End"), false)).toBeNull();
  });
});

describe("queue cursor", () => {
  const ids = ["e", "d", "c", "b", "a"];
  const run = (state: QueueState, ...actions: Parameters<typeof queueReducer>[1][]) =>
    actions.reduce(queueReducer, state);

  it("moves within the rows and stops at the ends", () => {
    let s = run(initialQueueState, { type: "move", ids, to: "next" });
    expect(s.cursor).toEqual({ id: "d", index: 1 });
    s = run(s, { type: "move", ids, to: "last" }, { type: "move", ids, to: "next" });
    expect(s.cursor).toEqual({ id: "a", index: 4 });
    s = run(s, { type: "move", ids, to: "first" }, { type: "move", ids, to: "previous" });
    expect(s.cursor).toEqual({ id: "e", index: 0 });
    expect(run(initialQueueState, { type: "move", ids: [], to: "next" })).toBe(initialQueueState);
  });

  it("follows its row when rows arrive above, and holds its place when the row leaves", () => {
    const cursor = { id: "c", index: 2 };
    expect(cursorIndex(["f", ...ids], cursor)).toBe(3);
    expect(cursorIndex(["e", "d", "b", "a"], cursor)).toBe(2);
    expect(cursorIndex(["e"], cursor)).toBe(0);
    expect(cursorIndex([], cursor)).toBe(-1);
  });

  it("advances after a decision: the next row slides up when the filter hides the decided one", () => {
    expect(advanceAfterDecision(ids, 2, true)).toEqual({ id: "b", index: 2 });
    expect(advanceAfterDecision(ids, 2, false)).toEqual({ id: "b", index: 3 });
    expect(advanceAfterDecision(ids, 4, false)).toEqual({ id: "a", index: 4 });
    expect(advanceAfterDecision(ids, 4, true)).toEqual({ id: "b", index: 3 });
    expect(advanceAfterDecision(["a"], 0, true)).toEqual({ id: null, index: 0 });
    // Once the decided row is gone, the cursor names the row now in its place.
    const after = ids.filter((id) => id !== "c");
    expect(after[cursorIndex(after, advanceAfterDecision(ids, 2, true))]).toBe("b");
  });

  it("opens the rejection note on a row and closes it on a move, a decision or Esc", () => {
    let s = run(
      initialQueueState,
      { type: "select", ids, index: 1 },
      { type: "startReject", id: "d" },
    );
    expect(s.rejecting).toBe("d");
    expect(run(s, { type: "cancelReject" }).rejecting).toBeNull();
    expect(run(s, { type: "move", ids, to: "next" }).rejecting).toBeNull();
    expect(run(s, { type: "select", ids, index: 1 })).toBe(s);
    s = run(s, { type: "decided", ids, id: "d", hides: true });
    expect(s).toEqual({ cursor: { id: "c", index: 1 }, rejecting: null });
  });
});

describe("decisions in the cache", () => {
  const pages = (items: PortalUpload[][], next: (string | null)[] = []): UploadPages => ({
    pages: items.map(
      (page, i): PortalUploadsPage => ({
        items: page,
        next: next[i] ?? null,
        total: items.flat().length,
      }),
    ),
    pageParams: items.map((_, i) => (i === 0 ? undefined : `c${i}`)),
  });
  const [u5, u4, u3, u2] = [upload("u5"), upload("u4"), upload("u3"), upload("u2")];

  it("knows what each filter lists", () => {
    expect(statusMatches("received", "awaiting")).toBe(true);
    expect(statusMatches("pending", "awaiting")).toBe(true);
    expect(statusMatches("approved", "awaiting")).toBe(false);
    expect(statusMatches("approved", undefined)).toBe(true);
    expect(statusMatches("rejected", "approved")).toBe(false);
  });

  it("takes a decided upload out of a queue that no longer lists it, counting it out", () => {
    const data = pages([[u5, u4], [u3]], ["c1"]);
    const approved = decidedLocally(u4, "approved", undefined, "t");
    const out = placeInPages(data, { status: "awaiting" }, u4, approved)!;
    expect(out.pages.map((p) => p.items.map((u) => u.id))).toEqual([["u5"], ["u3"]]);
    expect(out.pages.map((p) => p.total)).toEqual([2, 2]);
  });

  it("replaces it in place where the filter still lists it", () => {
    const data = pages([[u5, u4]]);
    const held = decidedLocally(u4, "pending", { note: "later" }, "t");
    const out = placeInPages(data, { status: "awaiting" }, u4, held)!;
    expect(out.pages[0]!.items[1]).toMatchObject({
      id: "u4",
      status: "pending",
      reviewNote: "later",
    });
    expect(out.pages[0]!.total).toBe(3 - 1);
    const all = placeInPages(data, {}, u4, held)!;
    expect(all.pages[0]!.items.map((u) => u.status)).toEqual(["received", "pending"]);
  });

  it("puts an undone upload back where it sorts, or leaves it to an unloaded page", () => {
    const approved = decidedLocally(u4, "approved", undefined, "t");
    const data = pages([[u5], [u3]], ["c1"]);
    const back = placeInPages(data, { status: "awaiting" }, approved, u4)!;
    expect(back.pages.map((p) => p.items.map((u) => u.id))).toEqual([["u5"], ["u4", "u3"]]);
    expect(back.pages[0]!.total).toBe(3);
    const older = decidedLocally(u2, "approved", undefined, "t");
    const more = pages([[u5, u4]], ["c1"]);
    const kept = placeInPages(more, { status: "awaiting" }, older, u2)!;
    expect(kept.pages[0]!.items.map((u) => u.id)).toEqual(["u5", "u4"]);
    expect(kept.pages[0]!.total).toBe(3);
    const end = pages([[u5, u4]]);
    expect(
      placeInPages(end, { status: "awaiting" }, older, u2)!.pages[0]!.items.map((u) => u.id),
    ).toEqual(["u5", "u4", "u2"]);
  });

  it("leaves other portals' queues alone", () => {
    const data = pages([[upload("x9", "received", "p2")]]);
    const approved = decidedLocally(u4, "approved", undefined, "t");
    expect(placeInPages(data, { portalId: "p2", status: "awaiting" }, u4, approved)).toBe(data);
  });

  it("moves the portal's to-review count in its page and the portals list", () => {
    const detail = { id: "p1", awaitingReview: 2, uploads: [u5, u4] } as unknown as PortalDetail;
    const approved = decidedLocally(u4, "approved", undefined, "t");
    const next = placeInDetail(detail, u4, approved)!;
    expect(next.awaitingReview).toBe(1);
    expect(next.uploads[1]!.status).toBe("approved");
    const list = [
      { id: "p1", awaitingReview: 2 },
      { id: "p2", awaitingReview: 5 },
    ] as unknown as Portal[];
    expect(placeInPortals(list, u4, approved)!.map((p) => p.awaitingReview)).toEqual([1, 5]);
    const held = decidedLocally(u4, "pending", undefined, "t");
    expect(placeInPortals(list, u4, held)).toBe(list);
  });
});

describe("undo", () => {
  it("restores a decided upload's status and note exactly", () => {
    const rejected = { ...upload("u1", "rejected"), reviewNote: "Wrong fps" };
    expect(undoFor({ ...rejected, noteToSender: "Please send 25 fps" })).toEqual({
      decision: "rejected",
      notes: { note: "Wrong fps", noteToSender: "Please send 25 fps" },
      exact: true,
    });
    expect(undoFor(upload("u1", "approved"))).toEqual({
      decision: "approved",
      notes: { note: undefined, noteToSender: undefined },
      exact: true,
    });
    expect(undoneToast(rejected).title).toBe("Back to rejected: Ana");
  });

  it("sends a received upload back to pending, and says so", () => {
    const received = upload("u1", "received");
    expect(undoFor(received)).toEqual({ decision: "pending", exact: false });
    expect(decisionToast(received, "approved")).toEqual({
      title: "Approved: Ana",
      description: "Undo sets it to pending: an upload cannot go back to received.",
    });
    expect(decisionToast(upload("u1", "pending"), "rejected").description).toBeUndefined();
    expect(decisionToast(upload("u1", "pending"), "approved", "Approved").description).toBe(
      "Its folder moves to Approved. Undo moves it back.",
    );
    expect(undoneToast(received).title).toBe("Set to pending: Ana");
    expect(decisionToast(received, "approved", "Approved").description).toBe(
      "Its folder moves to Approved. Undo moves it back and sets it to pending (not received).",
    );
  });

  it("has nothing to undo, or decide, before the files landed", () => {
    expect(undoFor(upload("u1", "uploading"))).toBeNull();
    expect(reviewProblem(upload("u1", "uploading"))).toMatch(/still arriving/);
    expect(reviewProblem(upload("u1", "failed"))).toMatch(/failed/);
    expect(reviewProblem(upload("u1", "pending"))).toBeNull();
  });

  it("skips a decision that changes nothing", () => {
    expect(changesAnything(upload("u1", "approved"), "approved")).toBe(false);
    expect(changesAnything(upload("u1", "received"), "approved")).toBe(true);
    expect(changesAnything(upload("u1", "rejected"), "rejected", { note: "new reason" })).toBe(
      true,
    );
    expect(changesAnything(upload("u1", "rejected"), "rejected", { noteToSender: "Hi" })).toBe(
      true,
    );
    expect(changesAnything(upload("u1", "rejected"), "rejected", { note: "" })).toBe(false);
  });
});

describe("portals search", () => {
  it("defaults to the list, and the queue to what awaits review", () => {
    expect(parsePortalsSearch({})).toEqual({
      view: "list",
      portalId: undefined,
      status: "awaiting",
    });
    expect(
      parsePortalsSearch({ view: "review", portalId: "01jz00000000000000000001", status: "all" }),
    ).toEqual({ view: "review", portalId: "01jz00000000000000000001", status: "all" });
    expect(parsePortalsSearch({ view: "x", portalId: "../x", status: "done" })).toEqual({
      view: "list",
      portalId: undefined,
      status: "awaiting",
    });
  });

  it("writes short addresses", () => {
    expect(reviewSearchFor("p1")).toEqual({ view: "review", portalId: "p1", status: undefined });
    expect(portalsSearchParams({ view: "review", status: "rejected" })).toEqual({
      view: "review",
      portalId: undefined,
      status: "rejected",
    });
    expect(portalsSearchParams({ view: "list", status: "all" })).toEqual({});
  });
});

describe("approving an upload whose media check did not pass", () => {
  const checked = (status: PortalUpload["specCheck"]["status"], problem?: string) => ({
    ...upload("u1"),
    specCheck: {
      status,
      checkedAt: null,
      problems: problem ? [{ path: "Incoming/u1/a.mp4", message: problem }] : [],
      files: [],
    },
  });

  it("asks first when the check failed or has not finished, not when it passed or none is set", () => {
    expect(approvalRisk(checked("failed", "container mp4, expected mov"))).toBe(
      "Its media check failed: container mp4, expected mov.",
    );
    expect(approvalRisk(checked("checking"))).toMatch(/has not finished/);
    expect(approvalRisk(checked("passed"))).toBeNull();
    expect(approvalRisk(checked("not_required"))).toBeNull();
    // Approving again changes nothing, so nothing to ask.
    expect(approvalRisk({ ...checked("failed"), status: "approved" })).toBeNull();
  });
});
