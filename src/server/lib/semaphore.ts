/**
 * At most `size` tasks at once; the rest wait their turn in order. For work that takes a core
 * each (decoding, ffmpeg), so a burst of requests queues instead of starting a process each.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((go) => this.waiting.push(go));
    else this.active++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next in line, so `active` never dips below the queue.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
