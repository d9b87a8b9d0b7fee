import fs from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

/**
 * Starts a TypeScript module in a worker thread. Node does not load `.ts` in a worker, and tsx's
 * loader is not inherited by one, so a few lines of JavaScript register tsx in the thread first
 * (about 130 ms, once per thread).
 */
export function startTsThread(moduleUrl: URL, workerData: unknown): Worker {
  const file = JSON.stringify(fileURLToPath(moduleUrl));
  const worker = new Worker(
    `import("tsx/esm/api").then(({ register }) => { register(); return import(${file}); });`,
    { eval: true, workerData },
  );
  // A thread must not hold the process open after the service stopped: its work is in
  // transactions, so a thread cut off mid-batch loses nothing.
  worker.unref();
  return worker;
}

/**
 * Lowers the calling thread's CPU priority (nice 10), on Linux where a thread has its own id, so
 * that on a busy machine requests on the main thread go first while the thread still moves: at
 * nice 19 a bulk job on a machine saturated by a browser test run crawled at 1 % a second. Elsewhere
 * it does nothing.
 */
const THREAD_NICE = 10;

export function lowerThreadPriority() {
  try {
    const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, THREAD_NICE);
  } catch {
    // No /proc (not Linux) or not allowed: the thread keeps the process's priority.
  }
}
