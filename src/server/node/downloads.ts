import type { IncomingMessage, ServerResponse } from "node:http";
import type { Readable } from "node:stream";
import { ZipFile } from "yazl";
import { baseName, namesBelowCommonFolder, normalizeName, parentOf } from "@/contract/rules";
import { requestedRange } from "@/server/http/range";
import { validationFailed } from "@/server/lib/api-error";
import type { ByteRange } from "@/server/modules/files/blob-store";
import { subtreeRange } from "@/server/modules/files/files.repository";
import { requireOpenShare } from "@/server/modules/shares/share-access";
import { fileByPath, shareRow } from "@/server/modules/shares/shares.repository";
import {
  claimedScope,
  grantFor,
  type TransferGrant,
  withinGrant,
} from "@/server/modules/transfers/transfer-access";
import type { NodeRequestContext } from "./node.app";
import {
  addBytesServed,
  entryAt,
  insertUsage,
  type NodeEntry,
  setUsageBytes,
  subtreePage,
} from "./node.repository";
import { NodeError } from "./node-errors";
import { ctrAt, type Protection, passwordRequired, storedName } from "./protection";

/**
 * The receive this request belongs to: its token (header or `?token=`), the right direction,
 * and `path` (when given) within the token's scope, all checked before the transfer is read.
 */
function receiveGrant(ctx: NodeRequestContext, req: IncomingMessage, url: URL, p?: string) {
  const claims = ctx.claims(req, url, true);
  if (claims.direction !== "receive")
    throw new NodeError(403, "forbidden", "A send's token cannot download", {
      reason: "wrong_direction",
    });
  const scope = claimedScope(claims);
  if (p !== undefined && scope && !withinGrant(scope, p)) throw outside(p);
  const grant = grantFor(ctx.deps.db, claims, ctx.deps.clock.now());
  if (p !== undefined && !withinGrant(grant, p)) throw outside(p);
  return grant;
}

function outside(p: string) {
  return new NodeError(403, "forbidden", `"${p}" is outside this transfer's sources`, {
    reason: "outside_transfer",
    path: p,
  });
}

/** The key that reads a protected file, or the refusal that says why there is none. */
async function keyFor(ctx: NodeRequestContext, req: IncomingMessage, protection: Protection) {
  const key = await ctx.keyFor(req, protection.salt, protection.keyCheck);
  if (!key) throw passwordRequired();
  return key;
}

/** A stored file's plaintext over `range`: decrypted from its offset when it is protected. */
function contentOf(
  ctx: NodeRequestContext,
  entry: NodeEntry,
  protection: Protection | null,
  key: Buffer | null,
  range?: ByteRange,
): Readable {
  // The node serves the bytes from the files module's blob store, where commits put them.
  const stored = ctx.deps.files.blobs.read(storedName(entry.sha256!, protection), range);
  if (!protection || !key) return stored;
  return stored.pipe(ctrAt(key, protection.iv, range?.start ?? 0));
}

/**
 * How far ahead of the socket served bytes are recorded. The record is what `not_served`
 * compares with what the engine received, so it must never be behind what left: a node killed
 * mid-download would otherwise lose what it had sent, and the resumed download, which asks only
 * for the rest, could never complete. A crash over-counts by at most this (and what sat in the
 * socket); a download that ends, whole or cut short, is corrected to the exact count.
 */
const RECORD_AHEAD = 8 * 1024 * 1024;

/**
 * Writes `source` (`size` bytes, when known) to the response at the transfer's priority,
 * counting what goes out against the transfer and its usage id ahead of the bytes (above).
 */
async function send(
  ctx: NodeRequestContext,
  grant: TransferGrant,
  res: ServerResponse,
  source: Readable,
  size = Number.POSITIVE_INFINITY,
) {
  const { transfer } = grant;
  const { db, clock } = ctx.deps;
  const leave = ctx.traffic.enter(transfer);
  let sent = 0;
  let recorded = 0;
  let usageRow: number | bigint | null = null;
  const record = (bytes: number) => {
    db.transaction(() => {
      addBytesServed(db, transfer.id, bytes - recorded);
      if (usageRow !== null) setUsageBytes(db, usageRow, bytes);
      else
        usageRow = insertUsage(db, {
          usage_id: transfer.usage_id,
          workspace_id: transfer.workspace_id,
          transfer_id: transfer.id,
          direction: "receive",
          bytes,
          recorded_at: clock.now(),
        }).lastInsertRowid;
    }).immediate();
    recorded = bytes;
  };
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      if (res.destroyed) break;
      sent += chunk.length;
      if (sent > recorded) record(Math.max(sent, Math.min(sent + RECORD_AHEAD, size)));
      if (!res.write(chunk)) await drained(res);
      if (ctx.traffic.paced(transfer.priority))
        await ctx.traffic.pace(transfer.priority, chunk.length);
    }
    res.end();
  } finally {
    source.destroy();
    leave();
    if (recorded !== sent) record(sent);
  }
}

/** The response can take more, or the client went away. */
const drained = (res: ServerResponse) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });

/**
 * A share's download serves the file as it was shared (its snapshot's blob), not the live tree's,
 * and only while the share is open: expiry, revocation and maxDownloads are enforced here too,
 * not only on the recipient page.
 */
function sharedEntry(ctx: NodeRequestContext, shareId: string, p: string): NodeEntry | undefined {
  const { db, clock } = ctx.deps;
  const share = shareRow(db, shareId);
  if (!share) return undefined;
  requireOpenShare(share, clock.now());
  const file = fileByPath(db, shareId, p);
  return (
    file && {
      path: file.path,
      is_file: 1,
      size: file.size,
      sha256: file.sha256,
      modified_at: share.created_at,
      protection: null,
    }
  );
}

const attachment = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/** GET/HEAD `files?path=`: one file, with Range (206, 416) and If-Range on its ETag (the SHA-256). */
export async function serveFile(
  ctx: NodeRequestContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) {
  const raw = url.searchParams.get("path");
  if (!raw) throw validationFailed("query.path", "path is required", "required");
  const p = normalizeName(raw);
  const grant = receiveGrant(ctx, req, url, p);
  const entry = grant.transfer.share_id
    ? sharedEntry(ctx, grant.transfer.share_id, p)
    : entryAt(ctx.deps.db, grant.transfer.workspace_id, p);
  if (!entry?.is_file) throw new NodeError(404, "not_found", `"${p}" is not a file`, { path: p });
  const protection = entry.protection ? (JSON.parse(entry.protection) as Protection) : null;
  const key = protection ? await keyFor(ctx, req, protection) : null;
  const etag = `"${entry.sha256}"`;
  const range = requestedRange(
    { range: req.headers.range, ifRange: req.headers["if-range"] },
    etag,
    entry.size,
  );
  res.setHeader("Accept-Ranges", "bytes");
  res.setHeader("ETag", etag);
  res.setHeader("Consign-File-Sha256", entry.sha256!);
  res.setHeader("Last-Modified", new Date(entry.modified_at).toUTCString());
  res.setHeader("Content-Disposition", attachment(baseName(p)));
  res.setHeader("Cache-Control", "private, no-store");
  if (range === "unsatisfiable") {
    res.setHeader("Content-Range", `bytes */${entry.size}`);
    throw new NodeError(
      416,
      "validation_failed",
      `The range is outside the file's ${entry.size} bytes`,
      {
        issues: [{ field: "Range", message: "unsatisfiable", code: "range_not_satisfiable" }],
      },
    );
  }
  res.setHeader("Content-Type", "application/octet-stream");
  res.setHeader("Content-Length", range ? range.end - range.start + 1 : entry.size);
  if (range) res.setHeader("Content-Range", `bytes ${range.start}-${range.end}/${entry.size}`);
  res.statusCode = range ? 206 : 200;
  if (req.method === "HEAD" || entry.size === 0) return void res.end();
  const size = range ? range.end - range.start + 1 : entry.size;
  await send(ctx, grant, res, contentOf(ctx, entry, protection, key, range ?? undefined), size);
}

const ZIP_PAGE = 1000;

/** A ZIP's response headers, named `{name}.zip`. */
function zipHeaders(res: ServerResponse, name: string) {
  res.statusCode = 200;
  res.setHeader("Content-Type", "application/zip");
  res.setHeader("Content-Disposition", attachment(`${name}.zip`));
  res.setHeader("Cache-Control", "private, no-store");
}

/**
 * A share's download of several files as one ZIP: the transfer's files as shared (their
 * snapshot, as `files?path=` serves them), named from their common folder down, stored, in the
 * transfer's order. The share must be open for every file before the first byte; the bytes count
 * as served like any download's, and the recipient page hashes each entry it receives.
 */
async function serveShareZip(
  ctx: NodeRequestContext,
  grant: TransferGrant,
  shareId: string,
  res: ServerResponse,
) {
  const entries = grant.roots.map((p) => {
    const entry = sharedEntry(ctx, shareId, p);
    if (!entry) throw new NodeError(404, "not_found", `"${p}" is not in the share`, { path: p });
    return entry;
  });
  const names = namesBelowCommonFolder(entries.map((e) => e.path));
  const zip = new ZipFile();
  for (const [i, entry] of entries.entries())
    zip.addReadStreamLazy(
      names[i]!,
      {
        compress: false,
        forceZip64Format: true,
        size: entry.size,
        mtime: new Date(entry.modified_at),
      },
      (cb) => cb(null, contentOf(ctx, entry, null, null)),
    );
  zip.end({ forceZip64Format: true, comment: "" });
  zipHeaders(res, shareRow(ctx.deps.db, shareId)?.title ?? "share");
  await send(ctx, grant, res, zip.outputStream as unknown as Readable);
}

/**
 * GET `zip?path=`: a folder (or, without a path, everything the transfer reaches) as one ZIP
 * (a share's transfer: its files, above),
 * stored (no compression), zip64, streamed as it is read: no temporary copy. Entries are named
 * from the zipped folder's own name down; the files tree supplies the folders, empty ones too.
 */
export async function serveZip(
  ctx: NodeRequestContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) {
  // A share's ZIP is its files whatever the path, so the path is checked once the transfer is read.
  const grant = receiveGrant(ctx, req, url);
  if (grant.transfer.share_id) return serveShareZip(ctx, grant, grant.transfer.share_id, res);
  const { db } = ctx.deps;
  const ws = grant.transfer.workspace_id;
  const raw = url.searchParams.get("path");
  let roots: string[];
  if (raw !== null && raw !== "") {
    const p = normalizeName(raw);
    if (!withinGrant(grant, p)) throw outside(p);
    if (!entryAt(db, ws, p))
      throw new NodeError(404, "not_found", `"${p}" was not found`, { path: p });
    roots = [p];
  } else {
    roots = grant.roots.filter((r) => r === "" || entryAt(db, ws, r));
  }
  // Every protected file of the ZIP must open with the one password sent, checked before the
  // first byte: afterwards a refusal could only cut the download short.
  const keys = new Map<string, Buffer>();
  const entries: { name: string; entry: NodeEntry; protection: Protection | null }[] = [];
  for (const root of roots) {
    const prefix = root === "" ? "" : parentOf(root);
    const nameOf = (p: string) => (prefix ? p.slice(prefix.length + 1) : p);
    const top = root === "" ? null : entryAt(db, ws, root)!;
    if (top) entries.push({ name: nameOf(top.path), entry: top, protection: null });
    if (top?.is_file) continue;
    const [lo, hi] = subtreeRange(root);
    // No path ends in "/", so "after lo" is "from lo" (and "after ''" leaves out the root).
    let after = lo;
    for (;;) {
      const page = subtreePage(db, ws, after, hi, ZIP_PAGE);
      for (const entry of page) entries.push({ name: nameOf(entry.path), entry, protection: null });
      if (page.length < ZIP_PAGE) break;
      after = page[page.length - 1]!.path;
    }
  }
  for (const item of entries) {
    if (!item.entry.protection) continue;
    const protection = JSON.parse(item.entry.protection) as Protection;
    item.protection = protection;
    if (!keys.has(protection.keyCheck))
      keys.set(protection.keyCheck, await keyFor(ctx, req, protection));
  }
  const zip = new ZipFile();
  for (const { name, entry, protection } of entries) {
    const mtime = new Date(entry.modified_at);
    if (!entry.is_file) {
      zip.addEmptyDirectory(name, { mtime });
      continue;
    }
    const key = protection ? keys.get(protection.keyCheck)! : null;
    zip.addReadStreamLazy(
      name,
      { compress: false, forceZip64Format: true, size: entry.size, mtime },
      (cb) => cb(null, contentOf(ctx, entry, protection, key)),
    );
  }
  zip.end({ forceZip64Format: true, comment: "" });
  zipHeaders(res, roots.length === 1 && roots[0] ? baseName(roots[0]) : "transfer");
  await send(ctx, grant, res, zip.outputStream as unknown as Readable);
}
