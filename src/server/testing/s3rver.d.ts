// s3rver ships no types: the little of it the test setup uses.
declare module "s3rver" {
  interface S3rverOptions {
    address?: string;
    port?: number;
    directory?: string;
    silent?: boolean;
    vhostBuckets?: boolean;
    resetOnClose?: boolean;
  }
  /** The little of Koa's context the abort route (s3-global-setup.ts) reads and writes. */
  interface KoaContext {
    method: string;
    path: string;
    query: Record<string, string | string[] | undefined>;
    status: number;
    body: unknown;
    type: string;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Koa's middleware stack (s3rver is a Koa app), run in order before its routes. */
    middleware: ((ctx: KoaContext, next: () => Promise<void>) => Promise<void>)[];
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
