import { afterEach, beforeEach, expect, it } from "vitest";
import { ManualClock } from "@/server/lib/clock";
import { type NodeTest, startNodeTest } from "@/server/node/node-testing";
import { makeClip, makePdf, makeTone } from "@/server/testing/media";

let n: NodeTest;
beforeEach(async () => {
  n = await startNodeTest({ clock: new ManualClock(Date.now()) });
});
afterEach(() => n.close());

const statuses = async (path: string) => {
  const res = await n.t.call("GET", n.t.w(`/files/proxies?path=${encodeURIComponent(path)}`));
  return res.json.proxies.map((p: { kind: string; status: string }) => `${p.kind}:${p.status}`);
};

it("video and audio are queued as a transfer lands them; a PDF waits to be asked for", async () => {
  const [clip, tone, pdf] = await Promise.all([makeClip(), makeTone(), makePdf(2)]);
  const { transferSpec } = await n.createTransfer({
    direction: "send",
    paths: [{ source: "/home/ana/shoot", destination: "Shoot" }],
    destinationRoot: "In",
  });
  for (const [name, bytes] of [
    ["a.mp4", clip],
    ["b.wav", tone],
    ["c.pdf", pdf],
  ] as const)
    expect((await n.upload(transferSpec.token, `In/Shoot/${name}`, bytes)).status).toBe(204);
  expect(await statuses("In/Shoot/a.mp4")).toEqual([
    "proxy720:queued",
    "waveform:queued",
    "contact_sheet:queued",
  ]);
  expect(await statuses("In/Shoot/b.wav")).toEqual(["waveform:queued"]);
  expect(await statuses("In/Shoot/c.pdf")).toEqual(["page:pending"]);
  await n.t.deps.jobs.runDue();
  expect(await statuses("In/Shoot/a.mp4")).toEqual([
    "proxy720:ready",
    "waveform:ready",
    "contact_sheet:ready",
  ]);
  expect(await statuses("In/Shoot/b.wav")).toEqual(["waveform:ready"]);
});
