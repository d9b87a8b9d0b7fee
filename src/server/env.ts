import path from "node:path";
import { z } from "zod";

/** The only reader of process.env: everything else receives a Config. */
const list = (s: string) =>
  s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);

const booleanFlag = z
  .enum(["1", "0", "true", "false", "yes", "no"])
  .transform((v) => v === "1" || v === "true" || v === "yes");

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().default("127.0.0.1"),
  DATA_DIR: z.string().default("./data"),
  PUBLIC_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  STATIC_DIR: z.string().default("./dist"),
  CORS_ORIGINS: z.string().default(""),
  CSP_CONNECT_SRC: z.string().default(""),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  TRUST_PROXY: booleanFlag.default(false),
  TRASH_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  VERSIONS_KEEP: z.coerce.number().int().min(1).max(1000).default(20),
  DEMO_CONTENT: booleanFlag.default(true),
  WEBHOOKS_ALLOW_PRIVATE: booleanFlag.default(false),
  WORKSPACE_NAME: z.string().min(1).max(120).default("My workspace"),
  NODE_URL: z.string().url().optional(),
  NODE_PORT: z.coerce.number().int().min(0).max(65535).default(8788),
  NODE_TOKEN_PUBLIC_KEYS: z.string().default(""),
  DATA_NODES: z
    .string()
    .default("")
    .refine(
      (v) => list(v).every((u) => z.string().url().safeParse(u).success),
      "must be a comma list of node base URLs",
    ),
  NODE_SECRET_HASHES: z
    .string()
    .default("")
    .refine((v) => list(v).every((h) => /^[0-9a-f]{64}$/.test(h)), "must be SHA-256 hex digests"),
  NODE_MAX_TRANSFERS: z.coerce.number().int().min(0).default(0),
  UPLOAD_EXPIRY_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(24),
  MIN_FREE_DISK_MB: z.coerce.number().int().min(0).default(512),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be smtp:// or smtps://")
    .optional(),
  MAIL_FROM: z.string().min(3).max(320).default("Consign <consign@localhost>"),
  PDF_RENDER_THREADS: z.coerce.number().int().min(1).max(16).default(1),
  MEDIA_TRANSCODES: z.coerce.number().int().min(1).max(16).default(1),
  ROLES: z
    .string()
    .default("api,workers,node")
    .transform((v) => list(v))
    .pipe(z.array(z.enum(["api", "workers", "node"])).min(1, "name at least one role")),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  BLOB_STORE: z.enum(["disk", "s3"]).default("disk"),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: booleanFlag.optional(),
  /** The bound on local copies of bucket objects that tools read (renders, probes). */
  S3_LOCAL_CACHE_MB: z.coerce.number().int().min(64).default(5120),
});

/** Where blob bytes live: DATA_DIR (the default), or an S3-compatible bucket. */
export type BlobStoreConfig =
  | { kind: "disk" }
  /** `localCacheBytes`: the local copies' bound (none when not given, as in tests). */
  | { kind: "s3"; s3: S3Settings; localCacheBytes?: number };

export interface S3Settings {
  /** null: AWS's own endpoint for the region. */
  endpoint: string | null;
  region: string;
  bucket: string;
  /** null: the SDK's own credential chain (instance role, ~/.aws). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** `host/bucket/key` rather than `bucket.host/key`, as most non-AWS servers want. */
  forcePathStyle: boolean;
}

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string | null;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  staticDir: string;
  corsOrigins: string[];
  cspConnectSrc: string[];
  rateLimit: { limit: number; windowMs: number };
  /** Requests per window from one client address that carry no valid key. */
  unauthenticatedRateLimit: number;
  /** Take the client address from X-Forwarded-For (one proxy in front) instead of the socket. */
  trustProxy: boolean;
  trashRetentionDays: number;
  versionsKeep: number;
  demoContent: boolean;
  webhooksAllowPrivate: boolean;
  workspaceName: string;
  /** The data node's base URL put into transfer specs; null: this service's own `/node/v1`. */
  nodeUrl: string | null;
  /** Where `npm run node` (a standalone data node) listens. */
  nodePort: number;
  /**
   * The Ed25519 public keys (raw, base64url) whose transfer tokens this node accepts, for a node
   * that does not share the service's DATA_DIR; the key in DATA_DIR is trusted when present.
   */
  nodeTokenPublicKeys: string[];
  /** The data nodes put into transfer specs, the least busy first; empty: NODE_URL or this service's. */
  dataNodes: string[];
  /**
   * SHA-256 (hex) of each data node's secret: a node presenting one may call the internal
   * commit (`/internal/v1`); none: the internal routes answer 404.
   */
  nodeSecretHashes: string[];
  /** Live transfers one data node takes before specs go to another (0: no limit). */
  nodeMaxTransfers: number;
  /** An upload not finished this long after its last byte is abandoned and cleaned up. */
  uploadExpiryMs: number;
  /** The data node takes no upload that would leave less free disk space than this (0: no floor). */
  minFreeDiskBytes: number;
  /** Where share mail is sent (smtp://user:pass@host:port); null: it waits in the outbox. */
  smtpUrl: string | null;
  /** The From of share mail. */
  mailFrom: string;
  /** Receipt PDFs rendered at once, each in a worker thread; more wait their turn. */
  pdfThreads: number;
  /** Video proxies transcoded at once (each uses every core ffmpeg finds); more wait queued. */
  mediaTranscodes: number;
  /**
   * PostgreSQL for what several service processes must share (docs/scale-out.md); null: the
   * embedded default, one process on SQLite alone.
   */
  databaseUrl: string | null;
  /**
   * What this process does: answer the API (and the console and public pages), run the
   * background work (jobs, webhook deliveries), carry bytes as a data node. All three by default.
   */
  roles: ReadonlySet<Role>;
  blobStore: BlobStoreConfig;
};

export type Role = "api" | "workers" | "node";

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, "") ?? null,
    logLevel: e.LOG_LEVEL,
    staticDir: path.resolve(e.STATIC_DIR),
    corsOrigins: list(e.CORS_ORIGINS),
    cspConnectSrc: list(e.CSP_CONNECT_SRC),
    rateLimit: { limit: e.RATE_LIMIT_PER_MINUTE, windowMs: e.RATE_LIMIT_WINDOW_SECONDS * 1000 },
    unauthenticatedRateLimit: e.RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE,
    trustProxy: e.TRUST_PROXY,
    trashRetentionDays: e.TRASH_RETENTION_DAYS,
    versionsKeep: e.VERSIONS_KEEP,
    demoContent: e.DEMO_CONTENT,
    webhooksAllowPrivate: e.WEBHOOKS_ALLOW_PRIVATE,
    workspaceName: e.WORKSPACE_NAME,
    nodeUrl: e.NODE_URL?.replace(/\/$/, "") ?? null,
    nodePort: e.NODE_PORT,
    nodeTokenPublicKeys: list(e.NODE_TOKEN_PUBLIC_KEYS),
    dataNodes: list(e.DATA_NODES).map((u) => u.replace(/\/$/, "")),
    nodeMaxTransfers: e.NODE_MAX_TRANSFERS,
    nodeSecretHashes: list(e.NODE_SECRET_HASHES),
    uploadExpiryMs: e.UPLOAD_EXPIRY_HOURS * 3600_000,
    minFreeDiskBytes: e.MIN_FREE_DISK_MB * 1024 * 1024,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    pdfThreads: e.PDF_RENDER_THREADS,
    mediaTranscodes: e.MEDIA_TRANSCODES,
    databaseUrl: e.DATABASE_URL ?? null,
    roles: new Set(e.ROLES),
    blobStore: blobStoreOf(e),
  };
}

/** The blob store the settings describe; a half-given S3 setting is a start-up error. */
function blobStoreOf(e: z.infer<typeof envSchema>): BlobStoreConfig {
  const s3Given = [e.S3_ENDPOINT, e.S3_BUCKET, e.S3_ACCESS_KEY_ID, e.S3_SECRET_ACCESS_KEY].some(
    (v) => v !== undefined,
  );
  const problems: string[] = [];
  if (e.BLOB_STORE === "disk") {
    if (s3Given) problems.push("S3_* settings are set but BLOB_STORE is not s3");
  } else {
    if (!e.S3_BUCKET) problems.push("S3_BUCKET is required when BLOB_STORE=s3");
    if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY)
      problems.push("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together");
  }
  if (problems.length)
    throw new Error(`Invalid environment:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  if (e.BLOB_STORE === "disk") return { kind: "disk" };
  return {
    kind: "s3",
    s3: {
      endpoint: e.S3_ENDPOINT?.replace(/\/$/, "") ?? null,
      region: e.S3_REGION,
      bucket: e.S3_BUCKET!,
      credentials:
        e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
          : null,
      forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
    },
    localCacheBytes: e.S3_LOCAL_CACHE_MB * 1024 * 1024,
  };
}

/** A config for tests and tools: the defaults, a given data dir, and overrides. */
export function testConfig(dataDir: string, overrides: Partial<Config> = {}): Config {
  // No free-space floor: tests must not depend on the machine's free disk (the floor's own tests
  // set it).
  return {
    ...loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
      DEMO_CONTENT: "0",
      MIN_FREE_DISK_MB: "0",
    }),
    ...overrides,
  };
}
