import { describe, expect, it } from "vitest";
import type { BulkReviewResult } from "@/contract/portal-review";
import type { PortalUpload } from "@/contract/portals";
import type { PortalsStore, UploadsQuery } from "./portals-store";
import {
  caller,
  createBody,
  drawn,
  ENGINES,
  events,
  NOW,
  postgresEngine,
  review,
  sqliteEngine,
} from "./portals-store.engines";
import { caught, MOVED, PORTALS, REVIEWER, UPLOADS, WS } from "./portals-store.seed";

const fold = (s: string) => s.replace(/[A-Z]/g, (ch) => ch.toLowerCase());
const titleOf = (id: string) => PORTALS.find((p) => p.id === id)!.title;
const ALL = [
  ...UPLOADS,
  ...MOVED.map((m) => ({
    id: m.id,
    portalId: "p1",
    status: "approved",
    name: "Mover",
    email: `mover${m.id.slice(1)}@x.test`,
  })),
];

/** The queue's ids for a filter, computed here from the seed alone (ASCII-only folding). */
function expectedIds(f: { portalId?: string; statuses?: string[]; q?: string }) {
  const has = (s: string | null | undefined) => s != null && fold(s).includes(fold(f.q!));
  return ALL.filter(
    (u) =>
      (!f.portalId || u.portalId === f.portalId) &&
      (!f.statuses || f.statuses.includes(u.status)) &&
      (!f.q || has(u.name) || has(u.email) || has(titleOf(u.portalId))),
  )
    .map((u) => u.id)
    .sort()
    .reverse();
}

async function allPages(
  store: PortalsStore,
  q: Omit<UploadsQuery, "limit" | "cursor">,
  limit: number,
) {
  const ids: string[] = [];
  const totals = new Set<number>();
  let cursor: string | undefined;
  do {
    const page = await store.listUploads(WS, { ...q, limit, cursor });
    ids.push(...page.items.map((u) => u.id));
    totals.add(page.total);
    cursor = page.next ?? undefined;
  } while (cursor);
  return { ids, totals: [...totals] };
}

describe.each(ENGINES)("the portals store on $engine", ({ use }) => {
  const open = use();

  it("pages the review queue newest first under every filter, without gaps or repeats, folding ASCII only", async () => {
    const { store } = open();
    const filters = [
      {},
      { portalId: "p2" },
      { status: "received" as const },
      { status: "awaiting" as const },
      { q: "élodie" },
      { q: "ÉLODIE" },
      { q: "élo" },
      { q: "ann" },
      { q: "%" },
      { q: "_" },
      { q: "EXAMPLE.COM" },
      { q: "dailies", status: "approved" as const },
      { q: "100%", portalId: "p2" },
      { q: "nobody" },
    ];
    for (const f of filters) {
      const statuses =
        f.status === "awaiting" ? ["received", "pending"] : f.status ? [f.status] : undefined;
      const want = expectedIds({ ...f, statuses });
      for (const limit of [7, 500]) {
        const { ids, totals } = await allPages(store, f, limit);
        expect(ids, JSON.stringify(f)).toEqual(want);
        expect(totals).toEqual([want.length]);
      }
    }
    expect(expectedIds({ q: "élodie" })).not.toEqual(expectedIds({ q: "ÉLODIE" }));
  });

  it("refuses an unknown portal, an unknown or foreign upload and one still arriving, and writes nothing", async () => {
    const e = open();
    const before = await events(e);
    expect(await caught(review(e, "nope", "u01", "approved"))).toEqual({
      status: 404,
      code: "not_found",
      message: "Portal nope was not found",
      details: { portalId: "nope" },
    });
    expect(await caught(review(e, "p2", "u01", "approved"))).toMatchObject({
      status: 404,
      details: { uploadId: "u01" },
    });
    expect(await caught(review(e, "p3", "u03", "approved"))).toEqual({
      status: 400,
      code: "validation_failed",
      message: expect.any(String),
      details: {
        issues: [
          { field: "decision", message: "its files have not all landed", code: "not_received" },
        ],
        status: "uploading",
      },
    });
    expect(await events(e)).toEqual(before);
    expect((await e.store.listUploads(WS, { limit: 1, cursor: "u07" })).items[0]!.status).toBe(
      "failed",
    );
  });

  it("approves into approvedPath with a move job and the sender's mail, and an undo cancels both", async () => {
    const e = open();
    const approved = await review(e, "p1", "u01", "approved", {
      note: "ok",
      noteToSender: "Thanks",
    });
    expect(approved).toMatchObject({
      status: "approved",
      folderPath: "Approved/1 Ann",
      reviewNote: "ok",
      noteToSender: "Thanks",
      reviewedBy: { id: REVIEWER, name: "Rita", email: "rita@x.test" },
      reviewedAt: new Date(NOW).toISOString(),
    });
    expect(approved.files.map((f) => f.path)).toEqual([
      "Approved/1 Ann/a.txt",
      "Approved/1 Ann/sub/b.txt",
    ]);
    const ops = await e.rows(
      "SELECT o.status, o.destination, o.files_total, o.bytes_total, i.path, i.choice FROM file_operations o JOIN file_operation_items i ON i.operation_id = o.id WHERE o.id NOT IN ('op41', 'op42')",
    );
    expect(ops).toEqual([
      {
        status: "queued",
        destination: "Approved",
        files_total: 2,
        bytes_total: 1200,
        path: "Incoming/1 Ann",
        choice: "keepBoth",
      },
    ]);
    expect(
      await e.rows("SELECT kind, status, max_attempts FROM jobs WHERE kind = 'files.operation'"),
    ).toEqual([{ kind: "files.operation", status: "queued", max_attempts: 5 }]);
    const mails = await e.rows("SELECT to_address, subject, status FROM mail_outbox");
    expect(mails).toEqual([
      {
        to_address: "ann1@Example.com",
        subject: "Your upload U01 was approved (Studio Ö)",
        status: "waiting",
      },
    ]);

    const undone = await review(e, "p1", "u01", "pending");
    expect([undone.folderPath, undone.status]).toEqual(["Incoming/1 Ann", "pending"]);
    expect(
      await e.rows("SELECT status FROM file_operations WHERE id NOT IN ('op41', 'op42')"),
    ).toEqual([{ status: "cancelled" }]);
    expect(await e.rows("SELECT count(*) AS n FROM mail_outbox")).toEqual([{ n: 0 }]);
    expect((await events(e)).slice(-2)).toEqual([
      {
        type: "portal.upload.reviewed",
        data: {
          portalId: "p1",
          uploadId: "u01",
          folder: "Approved/1 Ann",
          decision: "approved",
          previousStatus: "received",
          note: "ok",
          reviewedBy: { id: REVIEWER, name: "Rita", email: "rita@x.test" },
        },
      },
      {
        type: "portal.upload.reviewed",
        data: {
          portalId: "p1",
          uploadId: "u01",
          folder: "Incoming/1 Ann",
          decision: "pending",
          previousStatus: "approved",
          note: null,
          reviewedBy: { id: REVIEWER, name: "Rita", email: "rita@x.test" },
        },
      },
    ]);
  });

  it("approves an upload whose folder is in approvedPath already without a move, and undoes it in place", async () => {
    const e = open();
    const jobs = "SELECT count(*) AS n FROM file_operations";
    const [before] = await e.rows(jobs);
    // u33, rejected, is left rejected: the other tests count the seed's statuses.
    const approved = await review(e, "p3", "u33", "approved");
    expect([approved.status, approved.folderPath]).toEqual(["approved", UPLOADS[32]!.folder]);
    expect(await e.rows(jobs)).toEqual([before]);
    expect((await review(e, "p3", "u33", "rejected")).folderPath).toBe(UPLOADS[32]!.folder);
    expect(await e.rows(jobs)).toEqual([before]);
    expect(
      await e.rows("SELECT moved_from, move_job_id FROM portal_uploads WHERE id = 'u33'"),
    ).toEqual([{ moved_from: null, move_job_id: null }]);
  });

  it("undoes an approval whose move ran with a move back, and refuses one whose place is taken", async () => {
    const e = open();
    const back = await review(e, "p1", "u41", "rejected");
    expect(back.folderPath).toBe("Incoming/41 done");
    expect(
      await e.rows(
        "SELECT i.path, o.destination, i.choice FROM file_operations o JOIN file_operation_items i ON i.operation_id = o.id WHERE o.destination = 'Incoming'",
      ),
    ).toEqual([{ path: "Approved/41 done", destination: "Incoming", choice: null }]);
    const before = await events(e);
    expect(await caught(review(e, "p1", "u42", "pending"))).toEqual({
      status: 409,
      code: "conflict",
      message: expect.stringContaining('"Incoming/42 taken" is taken now'),
      details: { path: "Incoming/42 taken", uploadId: "u42", folder: "Approved/42 taken" },
    });
    expect(await events(e)).toEqual(before);
  });

  it("lists portals newest first with what awaits review, and reads one with its uploads", async () => {
    const { store } = open();
    const list = await store.listPortals(WS, "https://c.test");
    expect(list.map((p) => [p.id, p.url, p.expired])).toEqual([
      ["p4", "https://c.test/p/p4-slug", false],
      ["p3", "https://c.test/p/p3-slug", false],
      ["p2", "https://c.test/p/p2-slug", true],
      ["p1", "https://c.test/p/p1-slug", false],
    ]);
    for (const p of list) {
      const want = expectedIds({ portalId: p.id, statuses: ["received", "pending"] }).length;
      expect(p.awaitingReview, p.id).toBe(want);
    }
    const one = await store.getPortal(WS, "p2", "https://c.test");
    expect(one.uploads.map((u) => u.id)).toEqual(expectedIds({ portalId: "p2" }));
    expect((await caught(store.getPortal(WS, "nope", "x"))).details).toEqual({ portalId: "nope" });
  });
});

/** Rows a decision writes, without the ids each engine draws at random. */
const WRITTEN = {
  uploads:
    "SELECT id, status, folder_path, files_shown, moved_from, move_job_id IS NULL AS no_job, decision_mail_id IS NULL AS no_mail, review_note, note_to_sender, reviewed_by, reviewed_at FROM portal_uploads ORDER BY id",
  operations:
    "SELECT o.status, o.destination, o.files_total, o.bytes_total, o.finished_at, i.path, i.is_file, i.choice FROM file_operations o JOIN file_operation_items i ON i.operation_id = o.id ORDER BY o.created_at, i.path",
  jobs: "SELECT kind, status, unique_key, max_attempts, run_at FROM jobs ORDER BY kind, run_at",
  mail: "SELECT workspace_id, portal_id, channel, to_address, subject, body, status, error, created_at FROM mail_outbox ORDER BY to_address",
  entries: "SELECT path, is_file, folder_count, file_count, modified_at FROM entries ORDER BY path",
};

describe("PostgreSQL and SQLite on the same rows", () => {
  const sqlite = sqliteEngine();
  const postgres = postgresEngine();

  it("answer every call alike, errors included, and write the same rows and events", async () => {
    const engines = [sqlite(), postgres()];
    const decisions: [string, string, "approved" | "rejected" | "pending"][] = [
      ["p1", "u04", "approved"],
      ["p1", "u04", "approved"],
      ["p1", "u04", "rejected"],
      ["p1", "u10", "approved"],
      ["p2", "u02", "rejected"],
      ["p2", "u11", "approved"],
      ["p3", "u09", "approved"],
      ["p3", "u12", "rejected"],
      ["p1", "u07", "approved"],
      ["p1", "u41", "approved"],
      ["p1", "u42", "rejected"],
      ["p1", "u13", "pending"],
      ["p1", "u13", "approved"],
    ];
    const outcomes: unknown[][] = [[], []];
    const drawnIds: string[][] = [[], []];
    for (const [i, e] of engines.entries()) {
      for (const [portalId, uploadId, decision] of decisions)
        outcomes[i]!.push(
          await review(e, portalId, uploadId, decision, { note: `${decision} ${uploadId}` }).catch(
            (err) => caught(Promise.reject(err)),
          ),
        );
      outcomes[i]!.push(
        await e.store.reviewUploads(caller, {
          uploadIds: ["u22", "u16", "u22", "nope", "u31", "u15", "u05"],
          decision: "approved",
          note: "bulk",
        }),
      );
      const made = await e.store.createPortal(caller, createBody({ approvedPath: "Approved/new" }));
      outcomes[i]!.push(drawn(made));
      drawnIds[i] = [made.id, made.slug];
      outcomes[i]!.push(
        drawn(
          await e.store.updatePortal(
            WS,
            made.id,
            { requireEmail: true, fields: [] },
            "https://c.test",
          ),
        ),
      );
      outcomes[i]!.push(
        await e.store.updatePortal(WS, "p2", { approvedPath: "Approved/p2" }, "https://c.test"),
      );
      outcomes[i]!.push(
        await e.store
          .listPortals(WS, "https://c.test")
          .then((l) => l.filter((p) => p.id !== made.id)),
      );
      for (const id of ["p1", "p2", "p3"])
        outcomes[i]!.push(await e.store.getPortal(WS, id, "https://c.test"));
      for (const status of ["awaiting", "approved", "rejected", undefined] as const)
        outcomes[i]!.push(await e.store.listUploads(WS, { status, limit: 9, cursor: "u40" }));
      for (const sql of Object.values(WRITTEN)) {
        const rows = (await e.rows(sql)).map((r) =>
          Object.fromEntries(
            Object.entries(r).map(([k, v]) => [k, typeof v === "boolean" ? Number(v) : v]),
          ),
        );
        outcomes[i]!.push(rows);
      }
      outcomes[i]!.push(await events(e));
    }
    // The new portal's id and slug are drawn at random on each engine.
    const [a, b] = outcomes.map((o, i) =>
      JSON.parse(
        JSON.stringify(o)
          .replaceAll(drawnIds[i]![0]!, "<id>")
          .replaceAll(drawnIds[i]![1]!, "<slug>"),
      ),
    );
    expect(b).toEqual(a);
    expect(
      outcomes[0]!.filter((o) => (o as PortalUpload).status === "approved").length,
    ).toBeGreaterThan(3);
    const bulk = a[decisions.length] as BulkReviewResult;
    expect(bulk.decided.map((u) => u.id)).toEqual(["u22", "u16", "u15", "u05"]);
    expect(bulk.refused.map((r) => [r.uploadId, r.code])).toEqual([
      ["nope", "not_found"],
      ["u31", "not_received"],
    ]);
  });
});
