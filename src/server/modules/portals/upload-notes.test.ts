import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CreateUploadNoteBody } from "@/contract/portal-review";
import { ManualClock } from "@/server/lib/clock";
import { addMember } from "@/server/modules/members/members.repository";
import { type NodeTest, startNodeTest } from "@/server/node/node-testing";
import { expectBody, expectError, okBody } from "@/server/testing/expect-body";
import { makeClip } from "@/server/testing/media";
import { portalHelpers } from "./portal-testing";
import { portalsRouter } from "./portals.index";

/* Review notes on an upload's files, each at a time or a PDF page when it is about one. */

let n: NodeTest;
beforeEach(async () => {
  n = await startNodeTest({ clock: new ManualClock(Math.floor(Date.now() / 60_000) * 60_000) });
});
afterEach(() => n.close());

const { portal, send } = portalHelpers(() => n);
const notes = (key?: string) =>
  n.t.client(portalsRouter, { key }).workspaces[":workspaceId"]["portal-uploads"][":uploadId"]
    .notes;
const add = (uploadId: string, json: CreateUploadNoteBody, key?: string) =>
  notes(key).$post({ param: { ...n.t.ws, uploadId }, json });
const list = async (uploadId: string) =>
  (await okBody(await notes().$get({ param: { ...n.t.ws, uploadId } }))).items;

/** An upload of a 2-second clip, a PDF and a text file, probed (the media check has run). */
async function upload(over: Parameters<typeof portal>[0] = {}) {
  const p = await portal(over);
  const { started } = await send(p.slug, {
    "clip.mp4": await makeClip(),
    "script.pdf": "%PDF-1.4 not really",
    "notes.txt": "hello",
  });
  await n.t.deps.jobs.runDue();
  return { portal: p, id: started.uploadId, folder: started.transferSpec.destinationRoot };
}

describe("review notes", () => {
  it("keeps notes with their author, time or page, oldest first", async () => {
    const u = await upload();
    const clip = { path: `${u.folder}/clip.mp4`, timeMs: 1240, page: null };
    const timed = await expectBody(await add(u.id, { body: " Flash frame ", anchor: clip }), 201);
    expect(timed).toMatchObject({ uploadId: u.id, body: "Flash frame", anchor: clip });
    expect(timed.author.id).toBe(n.t.adminId);
    expect(timed.author.email).toBeTruthy();
    const page = { path: `${u.folder}/script.pdf`, timeMs: null, page: 3 };
    await expectBody(await add(u.id, { body: "Typo", anchor: page }), 201);
    await expectBody(await add(u.id, { body: "Overall fine" }), 201);
    expect((await list(u.id)).map((x) => [x.body, x.anchor])).toEqual([
      ["Flash frame", clip],
      ["Typo", page],
      ["Overall fine", null],
    ]);
  });

  it("refuses an anchor outside the upload, past the clip's end, of the wrong kind, or with both time and page", async () => {
    const u = await upload();
    const other = await upload();
    const code = async (anchor: { path: string; timeMs: number | null; page: number | null }) =>
      (await expectError(await add(u.id, { body: "x", anchor }), 400)).issues[0]!.code;
    const clip = `${u.folder}/clip.mp4`;
    expect(await code({ path: `${other.folder}/clip.mp4`, timeMs: 0, page: null })).toBe(
      "not_in_upload",
    );
    expect(await code({ path: `${u.folder}/nothing.mp4`, timeMs: 0, page: null })).toBe(
      "not_in_upload",
    );
    expect(await code({ path: clip, timeMs: 5000, page: null })).toBe("past_end");
    expect(await code({ path: clip, timeMs: 1000, page: 1 })).toBe("time_or_page");
    expect(await code({ path: `${u.folder}/notes.txt`, timeMs: 10, page: null })).toBe(
      "wrong_kind",
    );
    for (const body of ["", "   ", "x".repeat(2001)])
      expect((await expectError(await add(u.id, { body }), 400)).code).toBe("validation_failed");
    expect(await list(u.id)).toEqual([]);
    const unknown = "u".repeat(26);
    await expectError(await add(unknown, { body: "x" }), 404);
  });

  it("a note still points at its file after an approval moves the upload's folder", async () => {
    const u = await upload({ approvedPath: "Approved" });
    await expectBody(
      await add(u.id, {
        body: "Here",
        anchor: { path: `${u.folder}/clip.mp4`, timeMs: 500, page: null },
      }),
      201,
    );
    const review =
      n.t.client(portalsRouter).workspaces[":workspaceId"].portals[":portalId"].uploads[":uploadId"]
        .review;
    await okBody(
      await review.$post({
        param: { ...n.t.ws, portalId: u.portal.id, uploadId: u.id },
        json: { decision: "approved" },
      }),
    );
    await n.t.deps.jobs.runDue();
    const name = u.folder.slice(u.folder.lastIndexOf("/") + 1);
    const [note] = await list(u.id);
    expect(note!.anchor).toEqual({ path: `Approved/${name}/clip.mp4`, timeMs: 500, page: null });
  });

  it("only its author deletes a note", async () => {
    const u = await upload();
    const mine = await expectBody(await add(u.id, { body: "Mine" }), 201);
    const ed = addMember(
      n.t.deps.db,
      n.t.deps.events,
      { workspaceId: n.t.workspaceId, email: "ed@example.com", name: "Ed", role: "member" },
      n.t.clock.now(),
    );
    const edKey = n.t.keyWith(["portals:write"], { memberId: ed.id });
    const del = (noteId: string, key?: string) =>
      notes(key)[":noteId"].$delete({ param: { ...n.t.ws, uploadId: u.id, noteId } });
    const refused = await expectError(await del(mine.id, edKey), 403);
    expect(refused.details?.reason).toBe("not_the_author");
    const eds = await expectBody(await add(u.id, { body: "Ed's" }, edKey), 201);
    expect(eds.author).toEqual({ id: ed.id, name: "Ed", email: "ed@example.com" });
    expect((await del(mine.id)).status).toBe(204);
    await expectError(await del(mine.id), 404);
    expect((await list(u.id)).map((x) => x.body)).toEqual(["Ed's"]);
    const reader = n.t.keyWith(["receipts:read"]);
    expect((await add(u.id, { body: "x" }, reader)).status).toBe(403);
  });
});
