import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, expect, it } from "vitest";
import { serviceProcesses } from "@/server/testing/service-process";

const service = serviceProcesses("consign-webhooks-kill-", { WEBHOOKS_ALLOW_PRIVATE: "1" });
// Each delivery's event id, as many times as it arrived; answered after 50 ms, as a real
// receiver would, so the kill comes with deliveries in flight.
const arrived = new Map<string, number>();
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const { id } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: string };
    arrived.set(id, (arrived.get(id) ?? 0) + 1);
    setTimeout(() => res.writeHead(200).end(), 50);
  });
});
afterAll(() => {
  receiver.close();
  service.close();
});

const FOLDERS = 150;

/** Deliveries a process holds now (its claims' owner names its pid). */
function leasesOf(pid: number) {
  const db = service.open(true);
  try {
    return db
      .prepare("SELECT count(*) FROM webhook_deliveries WHERE lease_owner LIKE ?")
      .pluck()
      .get(`webhooks-${pid}-%`) as number;
  } finally {
    db.close();
  }
}

it("kill -9 of one of two processes in a webhook burst: the other delivers the rest, each event arrives, none twice but those in flight", async () => {
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const first = await service.start();
  const second = await service.start();
  const { call, w } = await service.signedIn(first);
  const port = (receiver.address() as AddressInfo).port;
  const endpoint = await call(first.origin, "POST", w("/webhooks"), {
    url: `http://127.0.0.1:${port}/in`,
    events: ["file.created"],
  });
  expect(endpoint.status).toBe(201);

  for (let i = 0; i < FOLDERS; i++) {
    const made = await call(first.origin, "POST", w("/files/folder"), { path: `burst/f${i}` });
    expect(made.status).toBe(201);
  }
  // The burst is under way in both processes when one of them dies holding deliveries (each is
  // held at least the receiver's 50 ms, far longer than from this read to the kill).
  while (arrived.size < FOLDERS / 4 || leasesOf(first.child.pid!) === 0)
    await new Promise((r) => setTimeout(r, 5));
  await service.kill(first.child);
  const inFlight = service.expireLeasesOf(first.child).deliveries;

  for (let i = 0; i < 600 && arrived.size < FOLDERS; i++)
    await new Promise((r) => setTimeout(r, 50));
  // A late second attempt of something already delivered would land in this time.
  await new Promise((r) => setTimeout(r, 1000));

  // One event per folder (the first also names `burst`, made with it).
  expect(arrived.size).toBe(FOLDERS);
  const twice = [...arrived.values()].filter((n) => n > 1).length;
  // At least once: a delivery the dead process sent but had not recorded goes again; no other.
  expect(twice).toBeLessThanOrEqual(inFlight);
  const db = service.open(true);
  try {
    const rows = db
      .prepare(
        "SELECT status, count(*) AS n, count(lease_owner) AS leased FROM webhook_deliveries GROUP BY status",
      )
      .all();
    expect(rows).toEqual([{ status: "delivered", n: FOLDERS, leased: 0 }]);
  } finally {
    db.close();
  }
  const list = await call(second.origin, "GET", w("/files?path=burst&count=1"));
  expect(list.json.total).toBe(FOLDERS);
});
