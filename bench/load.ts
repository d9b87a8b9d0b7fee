/**
 * The benchmarks' load generator: GETs at a fixed concurrency from a worker thread, so the
 * client does not share the event loop of a service running in the benchmark's process.
 */
import { Worker } from "node:worker_threads";

export const CONCURRENCY = 10;

// Plain JavaScript, evaluated in the worker: fetch each URL, CONCURRENCY at a time, timing each.
const LOAD = `
const { parentPort, workerData } = require("node:worker_threads");
const http = require("node:http");
const { urls, headers, concurrency } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const get = (url) =>
  new Promise((resolve, reject) => {
    http.get(url, { agent, headers }, (res) => {
      res.on("data", () => {});
      res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(url + " answered " + res.statusCode))));
    }).on("error", reject);
  });
(async () => {
  const times = new Array(urls.length);
  let next = 0;
  async function lane() {
    while (next < urls.length) {
      const i = next++;
      const started = performance.now();
      await get(urls[i]);
      times[i] = performance.now() - started;
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, lane));
  agent.destroy();
  parentPort.postMessage({ times, wallMs: performance.now() - started });
})().catch((err) => parentPort.postMessage({ error: String(err) }));`;

export function load(urls: string[], headers: Record<string, string>, concurrency = CONCURRENCY) {
  return new Promise<{ times: number[]; wallMs: number }>((resolve, reject) => {
    const worker = new Worker(LOAD, { eval: true, workerData: { urls, headers, concurrency } });
    worker.once("message", (m) => (m.error ? reject(new Error(m.error)) : resolve(m)));
    worker.once("error", reject);
  });
}
