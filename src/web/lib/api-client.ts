import { ApiError } from "@/browser/api-error";
import { useNetworkStore } from "@/web/stores/network-store";
import { type Session, useSessionStore } from "@/web/stores/session-store";

/** The service could not be reached (offline, DNS, CORS, refused connection). */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super("Can't reach the service", { cause });
    this.name = "NetworkError";
  }
}

/**
 * Something answered, but not with the API's JSON: a web page (a base URL missing `/v1`, a
 * login portal, a proxy). Parsing it would only say `Unexpected token '<'`.
 */
export class UnexpectedResponseError extends Error {
  constructor(
    readonly status: number,
    readonly contentType: string,
  ) {
    super(`The address answered with ${contentType || "something"} instead of the API's JSON`);
    this.name = "UnexpectedResponseError";
  }
}

export type Connection = Pick<Session, "baseUrl" | "apiKey">;
type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  query?: Record<string, QueryValue>;
  /** Sent as JSON; a Blob (an image) is sent as it is, with its own type. */
  body?: unknown;
  signal?: AbortSignal;
  /** Explicit credentials (the connect screen); otherwise the signed-in session's. */
  connection?: Connection;
  /** `blob` for operations that answer with bytes (a thumbnail, a PDF); errors are JSON still. */
  responseType?: "json" | "blob";
}

/** 429s are retried after `Retry-After` this many times before the error reaches the page. */
const MAX_THROTTLED_RETRIES = 5;

function currentConnection(): Connection {
  const session = useSessionStore.getState().session;
  if (!session) throw new ApiError(401, "unauthenticated", "Not signed in", null);
  return session;
}

export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>) {
  const url = new URL(baseUrl.replace(/\/+$/, "") + path, window.location.href);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
  }
  return url.toString();
}

function sleep(ms: number, signal?: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

async function toApiError(res: Response): Promise<ApiError> {
  const requestId = res.headers.get("X-Request-Id");
  try {
    const body = (await res.json()) as {
      error?: { code?: string; message?: string; details?: Record<string, unknown> | null };
    };
    if (body.error?.code) {
      return new ApiError(
        res.status,
        body.error.code,
        body.error.message ?? res.statusText,
        body.error.details ?? null,
        requestId,
      );
    }
  } catch {
    // Not the envelope (a proxy's HTML page, say): fall through to a generic error.
  }
  return new ApiError(
    res.status,
    "http_error",
    `The service answered ${res.status}`,
    null,
    requestId,
  );
}

function signOutReason(error: ApiError): string {
  const reason = error.reason;
  const why: Record<string, string> = {
    expired: "The API key has expired.",
    revoked: "The API key was revoked.",
    creator_removed: "The member who created this API key was removed.",
    unknown: "The service does not know this API key.",
  };
  return (reason && why[reason]) || `Signed out: ${error.message}`;
}

/**
 * The one way the console calls the service. Responses are typed by the contract but not
 * parsed at run time (members the console does not know are simply ignored), which keeps the
 * schema library out of the download. It waits out 429s (telling the page it was asked
 * to slow down), reports network failures to the offline banner, and on 401 signs the person
 * out with the reason, which sends them back to the connect screen.
 */
export async function apiRequest<T = unknown>(
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  return readBody<T>(await send(path, options), options);
}

/** A conditional read's answer: the body, and the validator to send with the next read. */
export interface Validated<T> {
  data: T;
  etag: string | null;
}

/**
 * A GET that sends the ETag of the answer held (`If-None-Match`): a 304 keeps that answer,
 * so a poll of an unchanged resource carries no body. A header set by the page also keeps the
 * browser's cache out of it (fetch then hands the 304 over as it is).
 */
export async function apiRequestValidated<T>(
  path: string,
  held: Validated<T> | undefined,
  options: Omit<RequestOptions, "method" | "body" | "responseType"> = {},
): Promise<Validated<T>> {
  const res = await send(path, options, held?.etag ? { "If-None-Match": held.etag } : {});
  if (res.status === 304 && held) return held;
  return { data: await readBody<T>(res, options), etag: res.headers.get("ETag") };
}

/** The request, its 429s waited out; an answer that is neither 2xx nor 304 is thrown. */
async function send(path: string, options: RequestOptions, extraHeaders = {}): Promise<Response> {
  const connection = options.connection ?? currentConnection();
  const url = buildUrl(connection.baseUrl, path, options.query);
  const network = useNetworkStore.getState();
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, {
        method: options.method ?? "GET",
        headers: {
          Authorization: `Bearer ${connection.apiKey}`,
          Accept: options.responseType === "blob" ? "*/*" : "application/json",
          ...(options.body === undefined
            ? {}
            : {
                "Content-Type":
                  options.body instanceof Blob ? options.body.type : "application/json",
              }),
          ...extraHeaders,
        },
        body:
          options.body === undefined || options.body instanceof Blob
            ? (options.body as Blob | undefined)
            : JSON.stringify(options.body),
        signal: options.signal,
        credentials: "omit",
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      network.setOffline(true);
      throw new NetworkError(error);
    }
    network.setOffline(false);

    if (res.status === 429 && attempt < MAX_THROTTLED_RETRIES) {
      const seconds = Number(res.headers.get("Retry-After"));
      const waitMs = Math.min(Number.isFinite(seconds) && seconds > 0 ? seconds : 1, 120) * 1000;
      const endThrottle = network.beginThrottle(Date.now() + waitMs);
      try {
        await sleep(waitMs, options.signal);
      } finally {
        endThrottle();
      }
      continue;
    }
    if (!res.ok && res.status !== 304) {
      const error = await toApiError(res);
      if (res.status === 401 && !options.connection) {
        useSessionStore.getState().signOut(signOutReason(error));
      }
      throw error;
    }
    return res;
  }
}

async function readBody<T>(res: Response, options: RequestOptions): Promise<T> {
  if (res.status === 204 || res.status === 304) return undefined as T;
  if (options.responseType === "blob") return (await res.blob()) as T;
  const contentType = res.headers.get("Content-Type") ?? "";
  if (!/\bjson\b/i.test(contentType)) {
    await res.body?.cancel();
    throw new UnexpectedResponseError(res.status, contentType.split(";")[0]!.trim());
  }
  return (await res.json()) as T;
}

/** `/workspaces/{id}` + path, for the signed-in workspace. */
export function workspacePath(path: string): string {
  const session = useSessionStore.getState().session;
  if (!session) throw new ApiError(401, "unauthenticated", "Not signed in", null);
  return `/workspaces/${encodeURIComponent(session.workspaceId)}${path}`;
}

/** React Query's retry rule: never retry a 4xx the service answered on purpose. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500 && failureCount < 2;
  if (error instanceof NetworkError) return failureCount < 2;
  return false;
}

/** A sentence for a person, naming the missing scope on 403. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 403 && error.requiredScopes.length > 0) {
      return `This API key lacks the ${error.requiredScopes.map((s) => `"${s}"`).join(" or ")} scope needed here.`;
    }
    return error.message;
  }
  if (error instanceof NetworkError) return "Can't reach the service. Check your connection.";
  return error instanceof Error ? error.message : String(error);
}
