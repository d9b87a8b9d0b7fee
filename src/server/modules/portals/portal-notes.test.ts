import { describe, expect, it } from "vitest";
import { UPLOAD_NOTES_MAX } from "@/contract/portal-rules";
import type { Caller } from "@/server/http/caller";
import { caller, ENGINES, NOW } from "./portals-store.engines";
import { caught, REVIEWER, UPLOADS, WS } from "./portals-store.seed";

/* The portals store's review notes, on both engines (the same answers and rows). */

const folder = UPLOADS[0]!.folder;
const aTxt = `${folder}/a.txt`;
const keyOnly: Caller = { ...caller, memberId: null, keyId: "k2" };
const otherMember: Caller = { ...caller, memberId: "m-other" };

describe.each(ENGINES)("review notes on $engine", ({ use }) => {
  const open = use();

  it("keeps notes with their author, oldest first, and refuses an anchor off the upload's files or of the wrong kind", async () => {
    const { store, rows } = open();
    const page = { path: aTxt, timeMs: null, page: null };
    expect(await caught(store.addUploadNote(caller, "u01", { body: "x", anchor: page }))).toEqual({
      status: 400,
      code: "validation_failed",
      message: expect.any(String),
      details: { issues: [{ field: "anchor", message: expect.any(String), code: "time_or_page" }] },
    });
    const timed = await caught(
      store.addUploadNote(caller, "u01", { body: "x", anchor: { ...page, timeMs: 5 } }),
    );
    expect(timed.details).toEqual({
      issues: [
        {
          field: "anchor.timeMs",
          message: `"${aTxt}" is not audio or video: it has no time`,
          code: "wrong_kind",
        },
      ],
    });
    for (const path of [`${UPLOADS[1]!.folder}/a.txt`, `${folder}/nope.txt`, `${folder}x/a.txt`])
      expect(
        (
          await caught(
            store.addUploadNote(caller, "u01", { body: "x", anchor: { ...page, path, page: 1 } }),
          )
        ).details,
        path,
      ).toEqual({
        issues: [
          {
            field: "anchor.path",
            message: `"${path}" is not one of this upload's files`,
            code: "not_in_upload",
          },
        ],
      });
    const first = await store.addUploadNote(caller, "u01", { body: "Overall fine" });
    expect(first).toEqual({
      id: expect.any(String),
      uploadId: "u01",
      body: "Overall fine",
      anchor: null,
      author: { id: REVIEWER, name: "Rita", email: "rita@x.test" },
      createdAt: new Date(NOW).toISOString(),
    });
    const second = await store.addUploadNote(keyOnly, "u01", { body: "By a key" });
    expect(second.author).toEqual({ id: null, name: null, email: null });
    expect((await store.listUploadNotes(WS, "u01")).items).toEqual([first, second]);
    expect(
      await rows(
        "SELECT upload_id, body, anchor_path, anchor_time_ms, anchor_page, member_id, key_id, author_name, author_email, created_at FROM portal_upload_notes ORDER BY id",
      ),
    ).toEqual([
      {
        upload_id: "u01",
        body: "Overall fine",
        anchor_path: null,
        anchor_time_ms: null,
        anchor_page: null,
        member_id: REVIEWER,
        key_id: "k1",
        author_name: "Rita",
        author_email: "rita@x.test",
        created_at: NOW,
      },
      {
        upload_id: "u01",
        body: "By a key",
        anchor_path: null,
        anchor_time_ms: null,
        anchor_page: null,
        member_id: null,
        key_id: "k2",
        author_name: null,
        author_email: null,
        created_at: NOW,
      },
    ]);
  });

  it("refuses an unknown or foreign upload, and lets only a note's author delete it", async () => {
    const { store } = open();
    const unknown = {
      status: 404,
      code: "not_found",
      message: "Upload nope was not found",
      details: { uploadId: "nope" },
    };
    expect(await caught(store.listUploadNotes(WS, "nope"))).toEqual(unknown);
    expect(await caught(store.addUploadNote(caller, "nope", { body: "x" }))).toEqual(unknown);
    expect(await caught(store.removeUploadNote(caller, "nope", "n"))).toEqual(unknown);
    expect((await caught(store.listUploadNotes("other", "u02"))).status).toBe(404);
    const mine = await store.addUploadNote(caller, "u02", { body: "Mine" });
    const keys = await store.addUploadNote(keyOnly, "u02", { body: "The key's" });
    const notTheAuthor = {
      status: 403,
      code: "forbidden",
      message: "Only its author deletes a note",
      details: { reason: "not_the_author" },
    };
    expect(await caught(store.removeUploadNote(otherMember, "u02", mine.id))).toEqual(notTheAuthor);
    expect(await caught(store.removeUploadNote(caller, "u02", keys.id))).toEqual(notTheAuthor);
    expect(await caught(store.removeUploadNote(caller, "u03", mine.id))).toEqual({
      status: 404,
      code: "not_found",
      message: `Note ${mine.id} was not found`,
      details: { noteId: mine.id },
    });
    await store.removeUploadNote(caller, "u02", mine.id);
    await store.removeUploadNote(keyOnly, "u02", keys.id);
    expect((await store.listUploadNotes(WS, "u02")).items).toEqual([]);
  });

  it(`keeps at most ${UPLOAD_NOTES_MAX} notes an upload`, async () => {
    const { store } = open();
    for (let i = 0; i < UPLOAD_NOTES_MAX; i++)
      await store.addUploadNote(caller, "u04", { body: `note ${i}` });
    expect(await caught(store.addUploadNote(caller, "u04", { body: "one more" }))).toEqual({
      status: 409,
      code: "conflict",
      message: `An upload keeps at most ${UPLOAD_NOTES_MAX} notes`,
      details: { reason: "too_many_notes", limit: UPLOAD_NOTES_MAX },
    });
    const { items } = await store.listUploadNotes(WS, "u04");
    expect(items.map((n) => n.body).slice(0, 2)).toEqual(["note 0", "note 1"]);
    expect(items).toHaveLength(UPLOAD_NOTES_MAX);
  });
});
