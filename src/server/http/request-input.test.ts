import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eventsRouter } from "@/server/modules/events/events.index";
import { filesRouter } from "@/server/modules/files/files.index";
import { webhooksRouter } from "@/server/modules/webhooks/webhooks.index";
import { createTestApp, type TestApp } from "@/server/testing/test-app";

let t: TestApp;
let files: ReturnType<typeof clients>["files"];
const clients = () => ({ files: t.client(filesRouter).workspaces[":workspaceId"].files });
beforeEach(async () => {
  t = await createTestApp();
  files = clients().files;
});
afterEach(() => t.close());

/** The error of a refused response, with its status. */
async function refusal(res: Response) {
  const body = (await res.json()) as {
    error: {
      code: string;
      details: { issues: { field: string; code: string; message: string }[] };
    };
  };
  return { status: res.status, code: body.error.code, issues: body.error.details.issues };
}

const rootNames = async () => {
  const res = await files.$get({ param: t.ws, query: {} });
  if (res.status !== 200) throw new Error(`listing answered ${res.status}`);
  return (await res.json()).items.map((i) => i.name);
};

describe("text that is not well-formed Unicode", () => {
  it("refuses a lone surrogate in a path or a name with path_rejected, and stores nothing", async () => {
    expect((await files.folder.$post({ param: t.ws, json: { path: "x" } })).status).toBe(201);
    const refused = [
      await files.folder.$post({ param: t.ws, json: { path: "a\ud800b" } }),
      await files.folder.$post({ param: t.ws, json: { path: "x/\udc00" } }),
      await files.$patch({ param: t.ws, json: { path: "x", newName: "y\ud83c" } }),
      await files.$delete({ param: t.ws, json: { paths: ["x", "\ud800"] } }),
    ];
    expect(await Promise.all(refused.map(refusal))).toEqual([
      { status: 400, code: "path_rejected", issues: [expect.objectContaining({ field: "path" })] },
      { status: 400, code: "path_rejected", issues: [expect.objectContaining({ field: "path" })] },
      {
        status: 400,
        code: "path_rejected",
        issues: [expect.objectContaining({ field: "newName" })],
      },
      {
        status: 400,
        code: "path_rejected",
        issues: [expect.objectContaining({ field: "paths.1" })],
      },
    ]);
    expect(await rootNames()).toEqual(["x"]);
    // A surrogate pair is a character like any other.
    expect((await files.folder.$post({ param: t.ws, json: { path: "x/🎬" } })).status).toBe(201);
  });

  it("refuses a lone surrogate in any other body string with validation_failed naming it", async () => {
    const webhooks = t.client(webhooksRouter).workspaces[":workspaceId"].webhooks;
    const res = await webhooks.$post({
      param: t.ws,
      json: { url: "https://hooks.example/in", events: ["*"], description: "caf\ud800" },
    });
    expect(await refusal(res)).toEqual({
      status: 400,
      code: "validation_failed",
      issues: [expect.objectContaining({ field: "description", code: "invalid_unicode" })],
    });
  });

  it("refuses a query value that is not percent-encoded UTF-8, naming the parameter", async () => {
    // Raw calls: a typed client encodes what it is given, so it cannot send a malformed escape.
    for (const [url, field] of [
      [t.w("/files/search?q=%ED%A0%80"), "query.q"],
      [t.w("/files?path=caf%E9"), "query.path"],
      [t.w("/events?after=%zz"), "query.after"],
    ] as const) {
      const res = await t.call("GET", url);
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe("validation_failed");
      expect(res.json.error.details.issues).toEqual([
        expect.objectContaining({ field, code: "invalid_unicode" }),
      ]);
    }
  });
});

describe("Unicode normalisation", () => {
  const decomposed = "cafe\u0301"; // e + combining acute, as macOS file names spell it
  const composed = "caf\u00e9";

  it("stores names in NFC, so the two spellings of a name are one file", async () => {
    expect((await files.folder.$post({ param: t.ws, json: { path: decomposed } })).status).toBe(
      201,
    );
    await files.folder.$post({ param: t.ws, json: { path: composed } });
    expect(await rootNames()).toEqual([composed]);

    const inside = await files.$get({ param: t.ws, query: { path: decomposed } });
    expect(inside.status).toBe(200);
    const renamed = await files.$patch({
      param: t.ws,
      json: { path: decomposed, newName: "Cre\u0300me" },
    });
    expect(renamed.status).toBe(200);
    expect(await rootNames()).toEqual(["Cr\u00e8me"]);
    const gone = await files.$delete({ param: t.ws, json: { paths: ["Cr\u00e8me"] } });
    expect(gone.status).toBe(200);
    expect(await rootNames()).toEqual([]);
  });
});

describe("path segments", () => {
  const long = "x".repeat(256);

  it("holds every segment of every path to 255 characters, naming the segment", async () => {
    for (const res of [
      await files.folder.$post({ param: t.ws, json: { path: `a/${long}` } }),
      await files.folder.$post({ param: t.ws, json: { path: long } }),
      await files.$get({ param: t.ws, query: { path: `${long}/b` } }),
    ]) {
      const body = await refusal(res);
      expect(body).toMatchObject({ status: 400, code: "path_rejected" });
      expect(body.issues[0]?.message).toContain(`"${"x".repeat(24)}…" has 256`);
    }
    expect(await rootNames()).toEqual([]);
  });

  it("accepts a 255-character segment, which can then be renamed to itself", async () => {
    const name = "y".repeat(255);
    expect((await files.folder.$post({ param: t.ws, json: { path: `a/${name}` } })).status).toBe(
      201,
    );
    const res = await files.$patch({ param: t.ws, json: { path: `a/${name}`, newName: name } });
    expect(res.status).toBe(200);
  });
});

describe("query integers", () => {
  const spellings = ["0x10", "1e3", " 5", "+5", "5.0", "-1", "", "5 "];

  it.each(spellings)("refuses %j for skip, count and every limit", async (value) => {
    const events = t.client(eventsRouter).workspaces[":workspaceId"].events;
    const webhooks = t.client(webhooksRouter).workspaces[":workspaceId"].webhooks;
    const created = await webhooks.$post({
      param: t.ws,
      json: { url: "https://hooks.example/in", events: ["*"] },
    });
    if (created.status !== 201) throw new Error(`webhook create answered ${created.status}`);
    const { id } = await created.json();
    const answers = [
      [await files.$get({ param: t.ws, query: { skip: value } }), "query.skip"],
      [await files.$get({ param: t.ws, query: { count: value } }), "query.count"],
      [await files.search.$get({ param: t.ws, query: { q: "a", limit: value } }), "query.limit"],
      [await events.$get({ param: t.ws, query: { limit: value } }), "query.limit"],
      [
        await webhooks[":webhookId"].deliveries.$get({
          param: { ...t.ws, webhookId: id },
          query: { limit: value },
        }),
        "query.limit",
      ],
    ] as const;
    for (const [res, field] of answers) {
      expect(await refusal(res)).toEqual({
        status: 400,
        code: "validation_failed",
        issues: [expect.objectContaining({ field })],
      });
    }
  });

  it("accepts decimal digits, leading zeros included", async () => {
    const res = await files.$get({ param: t.ws, query: { skip: "007", count: "5" } });
    expect(res.status).toBe(200);
  });
});
