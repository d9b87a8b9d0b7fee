import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { request } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { portalsRouter } from "@/server/modules/portals/portals.index";
import { publicPortalsRouter } from "@/server/modules/portals/public.index";
import { expectBody } from "@/server/testing/expect-body";
import { type NodeTest, sha256Hex, startNodeTest } from "./node-testing";

let n: NodeTest;
beforeEach(async () => {
  n = await startNodeTest();
});
afterEach(() => n.close());

/**
 * One request with its target sent as written (fetch drops a fragment and normalises the path),
 * the way a hostile client can send it.
 */
function raw(method: string, target: string, headers: Record<string, string>, body?: Buffer) {
  const { hostname, port } = new URL(n.base);
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>(
    (resolve, reject) => {
      const req = request({ hostname, port, method, path: target, headers }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      });
      req.on("error", reject);
      req.end(body);
    },
  );
}

const tusHeaders = (token: string, extra: Record<string, string> = {}) => ({
  Authorization: `Bearer ${token}`,
  "Tus-Resumable": "1.0.0",
  ...extra,
});

const uploadRow = (id: string) =>
  n.t.deps.db.prepare("SELECT status, offset FROM transfer_uploads WHERE id = ?").get(id) as {
    status: string;
    offset: number;
  };

/** An open upload of 10 bytes with its first 4 staged, and the transfer's token. */
async function openUpload(token: string, path: string) {
  const created = await n.create(token, { path, length: 10 });
  expect(created.status).toBe(201);
  const location = created.headers.get("location")!;
  expect((await n.patch(location, token, 0, Buffer.from("vict"))).status).toBe(204);
  return { location, id: location.split("/").at(-1)! };
}

/** Request targets that name the caller's own upload in the path and the victim's elsewhere. */
const tricks = (own: string, other: string) => {
  const at = new URL(n.base).pathname;
  return [
    `${at}/uploads/${own}?x=/${other}`,
    `${at}/uploads/${own}?x=%2F${other}`,
    `${at}/uploads/${own}#/${other}`,
    `${at}/uploads/${own};/${other}`,
    `${at}/uploads/${own}%2F${other}`,
    `${at}/uploads/${own}//${other}`,
    `${at}/uploads/${other}/..%2F${own}`,
    `${at}/uploads/${other}?x=/${own}`,
    `${at}/uploads/${other}#/${own}`,
  ];
};

/**
 * Every trick, by HEAD, PATCH and DELETE: none reaches the victim's upload or tells its state.
 * The caller's own upload has 0 of its 7 bytes, so a PATCH at 4 that reaches it is refused too.
 */
async function attack(token: string, own: string, victim: string, victimPath: string) {
  for (const target of tricks(own, victim)) {
    const head = await raw("HEAD", target, tusHeaders(token));
    // Whatever answered, it was not the victim's upload.
    expect(head.headers["upload-length"], `HEAD ${target}`).not.toBe("10");
    expect(String(head.headers["upload-metadata"] ?? "")).not.toContain(
      Buffer.from(victimPath).toString("base64"),
    );
    const patch = await raw(
      "PATCH",
      target,
      tusHeaders(token, {
        "Upload-Offset": "4",
        "Content-Type": "application/offset+octet-stream",
      }),
      Buffer.from("EVIL!!"),
    );
    expect(patch.status, `PATCH ${target}`).not.toBe(204);
    expect(uploadRow(victim), target).toEqual({ status: "uploading", offset: 4 });
  }
  // Last, since one of them may rightly end the caller's own upload.
  for (const target of tricks(own, victim)) {
    await raw("DELETE", target, tusHeaders(token));
    expect(uploadRow(victim), `DELETE ${target}`).toEqual({ status: "uploading", offset: 4 });
  }
}

describe("an upload id the token does not own", () => {
  it("is out of reach through the query, a fragment, ; or encoded and doubled slashes", async () => {
    const send = () =>
      n.createTransfer({
        direction: "send",
        paths: [{ source: "/home/a", destination: "In" }],
        destinationRoot: "",
      });
    const victim = await send();
    const attacker = await send();
    const target = await openUpload(victim.transferSpec.token, "In/victim.bin");
    // The attacker's own upload has another length, so a HEAD that answers for it says so.
    const ownCreated = await n.create(attacker.transferSpec.token, {
      path: "In/own.bin",
      length: 7,
    });
    const own = ownCreated.headers.get("location")!.split("/").at(-1)!;

    await attack(attacker.transferSpec.token, own, target.id, "In/victim.bin");

    // The pathname names the victim's upload: 404, whatever the rest of the URL holds.
    for (const method of ["HEAD", "PATCH", "DELETE"]) {
      const res = await raw(
        method,
        `${new URL(n.base).pathname}/uploads/${target.id}?x=/${own}`,
        tusHeaders(attacker.transferSpec.token, {
          "Upload-Offset": "0",
          "Content-Type": "application/offset+octet-stream",
        }),
      );
      expect(res.status, method).toBe(404);
    }
    // The victim's staged bytes are its own, and its upload completes.
    expect(fs.readFileSync(n.t.deps.files.blobs.stagingPath(target.id)).toString()).toBe("vict");
    const rest = await n.patch(
      target.location,
      victim.transferSpec.token,
      4,
      Buffer.from("im!!!!"),
    );
    expect(rest.status).toBe(204);
    expect(rest.headers.get("consign-file-sha256")).toBe(sha256Hex("victim!!!!"));
  });

  it("keeps one portal sender out of another's upload", async () => {
    const admin = n.t.client(portalsRouter).workspaces[":workspaceId"];
    const portal = await expectBody(
      await admin.portals.$post({
        param: n.t.ws,
        json: { title: "Dailies", targetPath: "Incoming" },
      }),
      201,
    );
    const pub = n.t.client(publicPortalsRouter, { key: null }).public.portals[":slug"];
    const start = async (size: number) =>
      expectBody(
        await pub.uploads.$post(
          { param: { slug: portal.slug }, json: { files: [{ path: "clip.bin", size }] } },
          { headers: {} },
        ),
        201,
      );
    const victim = await start(10);
    // The attacker's own upload has another length, so a HEAD that answers for it says so.
    const attacker = await start(7);
    const victimPath = `${victim.transferSpec.destinationRoot}/clip.bin`;
    const target = await openUpload(victim.transferSpec.token, victimPath);
    const own = await n.create(attacker.transferSpec.token, {
      path: `${attacker.transferSpec.destinationRoot}/clip.bin`,
      length: 7,
    });
    const ownId = own.headers.get("location")!.split("/").at(-1)!;

    await attack(attacker.transferSpec.token, ownId, target.id, victimPath);

    const bytes = Buffer.concat([Buffer.from("vict"), randomBytes(6)]);
    const rest = await n.patch(target.location, victim.transferSpec.token, 4, bytes.subarray(4));
    expect(rest.status).toBe(204);
    expect(rest.headers.get("consign-file-sha256")).toBe(sha256Hex(bytes));
  });
});
