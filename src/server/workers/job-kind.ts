/** What an area registers with the JobRunner, and what its handler receives. */
export interface JobRecord {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
}

export interface JobKind {
  run(payload: unknown, job: JobRecord): Promise<void> | void;
  maxAttempts?: number;
  /** Delay before attempt n+1 after n failed attempts. */
  backoffMs?: (attempts: number) => number;
  /**
   * A pool of its own: at most this many jobs of the kind run at once in this process, and they
   * do not count against the runner's shared concurrency, so long jobs (a video transcode) never
   * hold up the short ones every area queues.
   */
  concurrency?: number;
}

export interface EnqueueOptions {
  runAt?: number;
  /** At most one queued or running job per unique key; enqueueing again is a no-op. */
  uniqueKey?: string;
  maxAttempts?: number;
}
