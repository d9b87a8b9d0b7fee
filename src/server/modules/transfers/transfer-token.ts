import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { Config } from "@/server/env";
import { ApiError } from "@/server/lib/api-error";
import { writePrivateFile } from "@/server/lib/private-files";

/*
 * Signed transfer tokens (docs/scale-out.md, Data nodes): `ctt_` + base64url(claims JSON) + `.` +
 * base64url(Ed25519 signature of everything before the dot). A node checks one with public keys
 * only, before and without any database read: signature, key, node, end, direction, scope. The
 * service keeps only the token's SHA-256 (transfers.token_hash), as before.
 */

export const TRANSFER_TOKEN_PREFIX = "ctt_";
/** The service's signing key, made on first start (PKCS#8 PEM, 0600). */
const KEY_FILE = "node-token.key";
/** The name a token gives the service's own in-process node when no node URL is configured. */
export const EMBEDDED_NODE = "embedded";
/**
 * A token's hard end, whatever its transfer's activity: the one window a node with no database
 * can enforce. The start and resume windows (transfer-access) still apply where the node reads
 * the transfer.
 */
export const TRANSFER_TOKEN_MAX_SECONDS = 30 * 24 * 3600;
/**
 * The roots travel in the token up to this many bytes of JSON (a token of about 3 KB, well inside
 * an 8 KB header or URL); a longer list travels as its SHA-256, checked against the transfer's
 * stored paths (10,000 paths of 4,096 characters would be 40 MB).
 */
export const TOKEN_ROOTS_MAX_BYTES = 2048;
/** No token the service signs comes near this; a bigger one is not parsed. */
const TOKEN_MAX_CHARS = 8192;
const shape = /^ctt_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{86})$/;

const claimsSchema = z.object({
  v: z.literal(1),
  kid: z.string().min(1).max(64),
  transferId: z.string().min(1),
  workspaceId: z.string().min(1),
  direction: z.enum(["send", "receive"]),
  node: z.string().min(1),
  issuedAt: z.number().int(),
  /** The start window's end: a token never used by then is refused (where the row is read). */
  startBy: z.number().int(),
  expiresAt: z.number().int(),
  /** A portal's transfer reaches its roots exactly, nothing below them. */
  exact: z.boolean(),
  /** The workspace paths the token reaches (a send's destinations, a receive's sources)… */
  roots: z.array(z.string()).optional(),
  /** …or, when they are too many to carry, the SHA-256 (hex) of their JSON. */
  rootsSha256: z.string().length(64).optional(),
});
export type TransferClaims = z.infer<typeof claimsSchema>;

/** The JSON whose SHA-256 stands for a long list of roots. */
export const rootsDigest = (roots: readonly string[]) =>
  createHash("sha256").update(JSON.stringify(roots)).digest("hex");

/** The scope a token carries: its roots, or their digest when they do not fit. */
export function scopeClaims(roots: readonly string[]) {
  return Buffer.byteLength(JSON.stringify(roots)) <= TOKEN_ROOTS_MAX_BYTES
    ? { roots: [...roots] }
    : { rootsSha256: rootsDigest(roots) };
}

/** A key's id: the first 16 characters of its raw public key's SHA-256, base64url. */
const kidOf = (key: KeyObject) =>
  createHash("sha256")
    .update(key.export({ format: "der", type: "spki" }))
    .digest("base64url")
    .slice(0, 16);

/** The form NODE_TOKEN_PUBLIC_KEYS takes: the raw 32-byte public key, base64url. */
export const publicKeyText = (key: KeyObject) => key.export({ format: "jwk" }).x as string;

const parsePublicKey = (x: string) =>
  createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x }, format: "jwk" });

const signingKeys = new Map<string, { kid: string; privateKey: KeyObject; publicKey: KeyObject }>();

/** The service's signing key in DATA_DIR, made on first use (of two processes, one writes it). */
export function signingKey(dataDir: string) {
  const at = path.join(dataDir, KEY_FILE);
  let key = signingKeys.get(at);
  if (!key) {
    try {
      const { privateKey } = generateKeyPairSync("ed25519");
      writePrivateFile(at, privateKey.export({ format: "pem", type: "pkcs8" }), {
        exclusive: true,
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const privateKey = createPrivateKey(fs.readFileSync(at));
    const publicKey = createPublicKey(privateKey);
    key = { kid: kidOf(publicKey), privateKey, publicKey };
    signingKeys.set(at, key);
  }
  return key;
}

export function signTransferToken(dataDir: string, claims: Omit<TransferClaims, "kid">) {
  const { kid, privateKey } = signingKey(dataDir);
  const payload = Buffer.from(JSON.stringify({ ...claims, kid })).toString("base64url");
  const body = `${TRANSFER_TOKEN_PREFIX}${payload}`;
  return `${body}.${sign(null, Buffer.from(body), privateKey).toString("base64url")}`;
}

export interface TokenVerifier {
  /** The public keys the node trusts, by key id. */
  keys: ReadonlyMap<string, KeyObject>;
  /** The node's own name, which a token must carry: its URL, or the embedded node's. */
  node: string;
  /**
   * Tokens whose signature was checked, and their claims: a signature costs ~140 µs, and a
   * transfer of small files sends its token with every request. End and node are checked each
   * time; the keys never change for one verifier.
   */
  verified: Map<string, TransferClaims>;
}

const VERIFIED_KEPT = 1024;

/**
 * What a node trusts: NODE_TOKEN_PUBLIC_KEYS, and the key in its DATA_DIR (made when none is
 * listed: the service and an in-process node, or a node sharing the service's DATA_DIR).
 */
export function tokenVerifier(config: Config): TokenVerifier {
  const keys = new Map<string, KeyObject>();
  for (const x of config.nodeTokenPublicKeys) {
    const key = parsePublicKey(x);
    keys.set(kidOf(key), key);
  }
  const own = path.join(config.dataDir, KEY_FILE);
  if (keys.size === 0 || fs.existsSync(own)) {
    const { kid, publicKey } = signingKey(config.dataDir);
    keys.set(kid, publicKey);
  }
  return { keys, node: config.nodeUrl ?? EMBEDDED_NODE, verified: new Map() };
}

const unauthenticated = (message: string, reason: "missing" | "malformed" | "unknown") =>
  new ApiError(401, "unauthenticated", message, { reason });

/**
 * A token's claims, checked with public keys only (no database): refused when missing or not a
 * token (401 `malformed`), not signed by a trusted key or changed since (401 `unknown`: the
 * service never issued it), past its end (401 `expired_token`), or for another node (403
 * `wrong_node`).
 */
export function readTransferToken(
  verifier: TokenVerifier,
  token: string | null | undefined,
  now: number,
): TransferClaims {
  if (!token) throw unauthenticated("A transfer token is required", "missing");
  const claims = verifier.verified.get(token) ?? verified(verifier, token);
  if (now > claims.expiresAt)
    throw new ApiError(401, "expired_token", "This transfer token has expired", {
      reason: "expired",
    });
  if (claims.node !== verifier.node)
    throw new ApiError(403, "forbidden", "This transfer token is for another data node", {
      reason: "wrong_node",
      node: claims.node,
    });
  return claims;
}

/** The claims of a token signed by a trusted key, kept for its next request. */
function verified(verifier: TokenVerifier, token: string): TransferClaims {
  const match = token.length <= TOKEN_MAX_CHARS ? shape.exec(token) : null;
  if (!match) throw unauthenticated("This is not a transfer token", "malformed");
  let claims: TransferClaims;
  try {
    claims = claimsSchema.parse(JSON.parse(Buffer.from(match[1]!, "base64url").toString()));
  } catch {
    throw unauthenticated("This is not a transfer token", "malformed");
  }
  const key = verifier.keys.get(claims.kid);
  const body = Buffer.from(token.slice(0, token.lastIndexOf(".")));
  if (!key || !verify(null, body, key, Buffer.from(match[2]!, "base64url")))
    throw unauthenticated("This transfer token is not known", "unknown");
  const { verified: kept } = verifier;
  if (kept.size >= VERIFIED_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(token, claims);
  return claims;
}
