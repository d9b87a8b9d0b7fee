import { createHash } from "node:crypto";
import type { Worker } from "node:worker_threads";
import type { Receipt } from "@/contract/receipts";
import type { AppDeps } from "@/server/deps";
import { startTsThread } from "@/server/workers/threads";

/** The client's receipt, the sender's audit report, the delivery note. */
export type PdfKind = "receipt" | "audit" | "delivery-note";
/** What a PDF thread is sent (receipt-pdf.thread.ts), and what it answers. */
export interface PdfRequest {
  id: number;
  kind: PdfKind;
  receipt: Receipt;
  /** The workspace's logo (settings), printed on every page. */
  logo: Uint8Array | null;
}
export type PdfReply = { id: number; pdf: Uint8Array } | { id: number; error: string };

/** Rendered PDFs kept in memory, least recently used first out; 10,000 files make about 1.5 MB. */
const CACHE_BYTES = 64 * 1024 * 1024;
/** A thread with nothing to do this long ends (starting one costs a few hundred ms). */
const IDLE_MS = 60_000;

interface PdfThread {
  worker: Worker;
  busy: boolean;
  /** The request it is rendering. */
  job: number | null;
  idle: NodeJS.Timeout | null;
}

/**
 * Renders receipt PDFs in worker threads, at most `threads` at a time (more wait their turn), and
 * keeps each share's latest PDF of each kind until its receipt changes. On the event loop, four
 * 10,000-file receipts held every other request for seconds.
 */
export class PdfRenderer {
  /** PDFs rendered rather than answered from the cache (tests read it). */
  renders = 0;
  private readonly pool: PdfThread[] = [];
  private readonly queue: ((t: PdfThread) => void)[] = [];
  private readonly pending = new Map<number, (reply: PdfReply) => void>();
  private nextId = 0;
  /** `kind:shareId` → the PDF of the receipt state it was rendered from. */
  private readonly cache = new Map<string, { fingerprint: string; pdf: Buffer }>();
  private cachedBytes = 0;
  private readonly inFlight = new Map<string, Promise<Buffer>>();

  constructor(private readonly threads: number) {}

  async pdf(kind: PdfKind, receipt: Receipt, logo: Uint8Array | null): Promise<Buffer> {
    const slot = `${kind}:${receipt.share.id}`;
    const fingerprint = fingerprintOf(receipt, logo);
    const hit = this.cache.get(slot);
    if (hit?.fingerprint === fingerprint) {
      this.cache.delete(slot);
      this.cache.set(slot, hit);
      return hit.pdf;
    }
    // Two asking for the same state at once share one render.
    const key = `${slot}:${fingerprint}`;
    let rendering = this.inFlight.get(key);
    if (!rendering) {
      rendering = this.render({ kind, receipt, logo }).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, rendering);
    }
    const pdf = await rendering;
    this.keep(slot, fingerprint, pdf);
    return pdf;
  }

  private async render(request: Omit<PdfRequest, "id">): Promise<Buffer> {
    const thread = await this.acquire();
    this.renders++;
    const id = this.nextId++;
    try {
      const reply = await new Promise<PdfReply>((resolve) => {
        this.pending.set(id, resolve);
        thread.job = id;
        thread.worker.postMessage({ id, ...request } satisfies PdfRequest);
      });
      if ("error" in reply) throw new Error(`Rendering the PDF failed: ${reply.error}`);
      return Buffer.from(reply.pdf.buffer, reply.pdf.byteOffset, reply.pdf.byteLength);
    } finally {
      this.pending.delete(id);
      thread.job = null;
      this.release(thread);
    }
  }

  private acquire(): Promise<PdfThread> {
    const free =
      this.pool.find((t) => !t.busy) ?? (this.pool.length < this.threads && this.start());
    if (!free) return new Promise((take) => this.queue.push(take));
    this.claim(free);
    return Promise.resolve(free);
  }

  private claim(thread: PdfThread) {
    thread.busy = true;
    if (thread.idle) clearTimeout(thread.idle);
    thread.idle = null;
  }

  private release(thread: PdfThread) {
    if (!this.pool.includes(thread)) return;
    const next = this.queue.shift();
    if (next) {
      this.claim(thread);
      next(thread);
      return;
    }
    thread.busy = false;
    thread.idle = setTimeout(() => this.stop(thread), IDLE_MS).unref();
  }

  private start(): PdfThread {
    const worker = startTsThread(new URL("./receipt-pdf.thread.ts", import.meta.url), null);
    const thread: PdfThread = { worker, busy: false, job: null, idle: null };
    worker.on("message", (reply: PdfReply) => this.pending.get(reply.id)?.(reply));
    // A thread that died fails the render it held; one waiting gets a new thread.
    const died = (reason: string) => {
      this.drop(thread);
      if (thread.job !== null) this.pending.get(thread.job)?.({ id: thread.job, error: reason });
      const next = this.queue.length > 0 && this.pool.length < this.threads && this.start();
      if (next) {
        this.claim(next);
        this.queue.shift()?.(next);
      }
    };
    worker.once("error", (err) => died(err.message));
    worker.once("exit", (code) => died(`the thread stopped (exit code ${code})`));
    this.pool.push(thread);
    return thread;
  }

  private stop(thread: PdfThread) {
    this.drop(thread);
    void thread.worker.terminate();
  }

  private drop(thread: PdfThread) {
    const i = this.pool.indexOf(thread);
    if (i >= 0) this.pool.splice(i, 1);
    if (thread.idle) clearTimeout(thread.idle);
  }

  private keep(slot: string, fingerprint: string, pdf: Buffer) {
    const old = this.cache.get(slot);
    if (old?.fingerprint === fingerprint) return;
    if (old) this.cachedBytes -= old.pdf.length;
    this.cache.delete(slot);
    if (pdf.length > CACHE_BYTES) return;
    this.cache.set(slot, { fingerprint, pdf });
    this.cachedBytes += pdf.length;
    for (const [oldest, entry] of this.cache) {
      if (this.cachedBytes <= CACHE_BYTES) break;
      this.cache.delete(oldest);
      this.cachedBytes -= entry.pdf.length;
    }
  }
}

/**
 * The receipt's content apart from when it was built, and the logo: an equal fingerprint renders
 * the same PDF (a new name is in the receipt; a new logo changes the hash).
 */
function fingerprintOf(receipt: Receipt, logo: Uint8Array | null) {
  const hash = createHash("sha256").update(JSON.stringify({ ...receipt, generatedAt: null }));
  if (logo) hash.update(logo);
  return hash.digest("base64url");
}

const renderers = new WeakMap<AppDeps, PdfRenderer>();

/** The service's renderer: its cache and its cap hold across requests. */
export function pdfRenderer(deps: AppDeps) {
  let r = renderers.get(deps);
  if (!r) {
    r = new PdfRenderer(deps.config.pdfThreads);
    renderers.set(deps, r);
  }
  return r;
}
