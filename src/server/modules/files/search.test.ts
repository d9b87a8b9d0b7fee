import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { okBody, refusal } from "@/server/testing/expect-body";
import { filesClient, writeFile } from "@/server/testing/files-client";
import { createTestApp, type TestApp } from "@/server/testing/test-app";

let t: TestApp;
let files: ReturnType<typeof filesClient>;

beforeEach(async () => {
  t = await createTestApp();
  files = filesClient(t);
  for (const p of [
    "shots/plate.exr",
    "shots/Plate",
    "shots/plate_v2.exr",
    "shots/old_plate.exr",
    "other/plate.exr",
    "shots/unrelated.txt",
  ]) {
    await writeFile(t, p);
  }
});
afterEach(() => t.close());

const search = (q: string, query: { path?: string; limit?: string } = {}) =>
  files.search.$get({ param: t.ws, query: { q, ...query } });
const found = async (q: string, query: { path?: string; limit?: string } = {}) =>
  (await okBody(await search(q, query))).items;

describe("search", () => {
  it("ranks exact, then prefix, then substring, case-insensitively, with each result's folder", async () => {
    const items = await found("PLATE", { path: "shots" });
    expect(items.map((i) => [i.path, i.match])).toEqual([
      ["shots/Plate", "exact"],
      ["shots/plate.exr", "prefix"],
      ["shots/plate_v2.exr", "prefix"],
      ["shots/old_plate.exr", "substring"],
    ]);
    expect(items[0]!.folder).toBe("shots");
    expect((await found("plate.exr")).map((i) => i.path)).toEqual([
      "other/plate.exr",
      "shots/plate.exr",
      "shots/old_plate.exr",
    ]);
  });

  it("honours the limit and handles one- and two-character text", async () => {
    expect(await found("plate", { limit: "2" })).toHaveLength(2);
    expect((await found("v2", { path: "shots" })).map((i) => i.name)).toEqual(["plate_v2.exr"]);
    const one = await found("o");
    expect(one[0]).toMatchObject({ name: "old_plate.exr", match: "prefix" });
    expect(one.map((i) => i.name)).toContain("other");
  });

  it("treats FTS syntax in the text as plain characters", async () => {
    await writeFile(t, 'weird "name" AND (x).txt');
    expect((await found('"name" AND')).map((i) => i.name)).toEqual(['weird "name" AND (x).txt']);
    expect((await search("%")).status).toBe(200);
  });

  it("counts characters, not UTF-16 units, when choosing how to match", async () => {
    await writeFile(t, "shots/x🎬ab.txt");
    // Three UTF-16 units but two characters: too short for a trigram, so the scope is walked.
    expect((await found("🎬a")).map((i) => i.path)).toEqual(["shots/x🎬ab.txt"]);
  });

  it("refuses control characters in the text with validation_failed naming query.q", async () => {
    // A NUL used to cut the FTS query short and answer 500.
    for (const q of ["a\u0000b", "plate\u0007", "\u007f", "x\u0085", "\u009f"]) {
      const res = await refusal(await search(q));
      expect([q, res.status, res.code]).toEqual([q, 400, "validation_failed"]);
      expect(res.details.issues[0].field).toBe("query.q");
    }
  });

  it("finds a name whatever Unicode form the text is typed in", async () => {
    await writeFile(t, "shots/Café crème.txt");
    // Names are stored in NFC; text typed on macOS often arrives decomposed.
    for (const q of ["Café", "Café".normalize("NFD"), "é cr".normalize("NFD")]) {
      expect((await found(q)).map((i) => i.name)).toEqual(["Café crème.txt"]);
    }
  });

  it("never returns trashed entries, in any tier or scope", async () => {
    await writeFile(t, "shots/bin/plate.exr");
    await writeFile(t, "shots/bin/pl");
    const trashed = ["shots/plate.exr", "shots/old_plate.exr", "shots/bin"];
    const queries = ["plate.exr", "plate", "ate", "pl", "l", "bin"];
    const trashedFound = async () => {
      const paths = new Set<string>();
      for (const q of queries) {
        for (const scope of ["", "shots"]) {
          for (const item of await found(q, { path: scope })) paths.add(item.path);
        }
      }
      return [...paths].filter((p) => trashed.some((x) => p === x || p.startsWith(`${x}/`)));
    };
    expect((await trashedFound()).sort()).toEqual([
      "shots/bin",
      "shots/bin/pl",
      "shots/bin/plate.exr",
      "shots/old_plate.exr",
      "shots/plate.exr",
    ]);
    await files.$delete({ param: t.ws, json: { paths: trashed } });
    expect(await trashedFound()).toEqual([]);
  });

  it("answers 404 for an unknown scope", async () => {
    expect((await search("x", { path: "nope" })).status).toBe(404);
  });
});
