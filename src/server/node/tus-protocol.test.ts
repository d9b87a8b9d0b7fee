import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { errorOf } from "@/server/testing/expect-body";
import { type NodeTest, startNodeTest } from "./node-testing";

let n: NodeTest;
let token: string;
beforeEach(async () => {
  n = await startNodeTest();
  await n.t.deps.files.writeFile(n.t.workspaceId, "In/a.txt", "a");
  token = (
    await n.createTransfer({
      direction: "send",
      paths: [{ source: "/home/a", destination: "In" }],
    })
  ).transferSpec.token;
});
afterEach(() => n.close());

/** Sends a request to the node as written, with the transfer's token unless told otherwise. */
const call = (method: string, path: string, headers: Record<string, string> = {}) =>
  fetch(`${n.base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...headers },
    ...(method === "PATCH" || method === "POST" ? { body: "x", duplex: "half" } : {}),
  } as RequestInit);

describe("tus 1.0.0 conformance", () => {
  it("every node response says nosniff", async () => {
    const receive = await n.createTransfer({
      direction: "receive",
      paths: [{ source: "In/a.txt", destination: "/tmp/a.txt" }],
    });
    const created = await n.create(token, { path: "In/b.txt", length: 2 });
    const answers = [
      created,
      await call("OPTIONS", "/uploads"),
      await call("OPTIONS", "/files"),
      await n.head(created.headers.get("location")!, token),
      await n.patch(created.headers.get("location")!, token, 0, Buffer.from("b")),
      await call("POST", "/uploads", { "Tus-Resumable": "1.0.0" }),
      await call("GET", "/nowhere"),
      await n.download(receive.transferSpec.token, "In/a.txt"),
      await n.download(receive.transferSpec.token, "In/none.txt"),
      await call("GET", "/zip", { Authorization: `Bearer ${receive.transferSpec.token}` }),
    ];
    for (const res of answers)
      expect(res.headers.get("x-content-type-options"), res.url).toBe("nosniff");
  });

  it("refuses a deferred length in the envelope, as the extension it does not offer", async () => {
    const res = await call("POST", "/uploads", {
      "Tus-Resumable": "1.0.0",
      "Upload-Defer-Length": "1",
    });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({
      code: "validation_failed",
      details: { issues: [{ field: "Upload-Defer-Length", code: "unsupported" }] },
    });
    const discovery = await call("OPTIONS", "/uploads");
    expect(discovery.headers.get("tus-extension")).not.toContain("creation-defer-length");
  });

  it("answers 412 with Tus-Version to another protocol version, and processes nothing", async () => {
    for (const version of ["0.2.2", "2.0.0"]) {
      const res = await n.create(token, {
        path: "In/v.txt",
        length: 1,
        headers: { "Tus-Resumable": version },
      });
      expect(res.status, version).toBe(412);
      expect(res.headers.get("tus-version")).toBe("1.0.0");
      expect((await errorOf(res)).details).toMatchObject({
        issues: [{ field: "Tus-Resumable", code: "unsupported_version" }],
      });
    }
    expect(n.uploads()).toEqual([]);
  });

  it("answers 415 to a PATCH whose body is not application/offset+octet-stream", async () => {
    const created = await n.create(token, { path: "In/c.txt", length: 1 });
    const location = created.headers.get("location")!;
    for (const type of ["text/plain", "application/octet-stream"]) {
      const res = await n.patch(location, token, 0, Buffer.from("c"), { "Content-Type": type });
      expect(res.status, type).toBe(415);
      expect((await errorOf(res)).code).toBe("validation_failed");
    }
    expect((await n.head(location, token)).headers.get("upload-offset")).toBe("0");
  });

  it("HEAD of an unknown upload is not cached either", async () => {
    const res = await n.head(`${n.base}/uploads/${"0".repeat(32)}`, token);
    expect(res.status).toBe(404);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});
