import type { ByteRange } from "@/server/modules/files/blob-store";

/*
 * HTTP Range reads (RFC 9110 §14), one place for every byte response that offers them: the data
 * node's file downloads and the media renditions (proxies, signed media addresses).
 */

/** `Range: bytes=…` for one range; null for none, a malformed one or several (the whole file). */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | "unsatisfiable" | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === "" && m[2] === "")) return null;
  let start: number;
  let end: number;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== "" && Number(m[2]) < start) return null;
  }
  if (start >= size) return "unsatisfiable";
  return { start, end };
}

/**
 * The range a request asks for, honouring `If-Range`: a validator other than the current
 * `etag` means the client's copy is stale, so it gets the whole body (null) instead.
 */
export function requestedRange(
  headers: { range?: string | undefined; ifRange?: string | string[] | undefined },
  etag: string,
  size: number,
): ByteRange | "unsatisfiable" | null {
  if (headers.ifRange !== undefined && headers.ifRange !== etag) return null;
  return parseRange(headers.range, size);
}
