import { useEffect, useRef } from "react";
import type { ProxyEntry, ProxyStatus } from "@/contract/media";
import type { MediaKind, ProxyKind } from "@/contract/media-rules";
import { mediaKindOf } from "@/contract/media-rules";
import { useProxyStatusQuery } from "../api/get-proxy-status";
import { useRenderProxiesMutation } from "../api/render-proxies";
import { typeOf } from "../state/media-types";
import type { ViewerTarget } from "../viewer-store";
import { useOriginalUrl } from "./use-original-url";

const entryOf = (status: ProxyStatus | undefined, kind: ProxyKind, page = 0) =>
  status?.proxies.find((p) => p.kind === kind && p.page === page) ?? null;

const readyUrl = (entry: ProxyEntry | null) =>
  entry?.status === "ready" && entry.url ? entry.url : null;

/** Times the viewer asks in one opening: a PDF's later pages are known only after the first. */
const MAX_ASKS = 3;

/** Nothing renders and something is missing: the viewer asks for it (row 14). */
const needsRender = (status: ProxyStatus) =>
  status.media !== null &&
  !status.proxies.some((p) => p.status === "queued" || p.status === "rendering") &&
  (status.proxies.length === 0 || status.proxies.some((p) => p.status === "pending"));

/**
 * Everything the viewer shows of one file or kept version: its kind, the proxies ready to play
 * (their signed addresses), the original while they render, and how far they are. It asks the
 * service to render what is missing when nothing is on its way.
 */
export function useMediaSources(target: ViewerTarget) {
  const status = useProxyStatusQuery(target);
  const render = useRenderProxiesMutation(target);
  const asks = useRef(0);
  const data = status.data;
  useEffect(() => {
    if (!data || render.isPending || asks.current >= MAX_ASKS || !needsRender(data)) return;
    asks.current += 1;
    render.mutate();
  }, [data, render]);

  const kind: MediaKind | null = data?.media ?? mediaKindOf(typeOf(target));
  const proxy = entryOf(data, "proxy720");
  const sheet = entryOf(data, "contact_sheet");
  const waveform = entryOf(data, "waveform");
  const proxyUrl = readyUrl(proxy);
  const sheetUrl = readyUrl(sheet);
  const wantsOriginal = kind !== "pdf" && kind !== null && !proxyUrl;
  const original = useOriginalUrl(target, wantsOriginal);
  const originalUrl = original.url;
  const pages = (data?.proxies ?? [])
    .filter((p) => p.kind === "page")
    .sort((a, b) => a.page - b.page);
  return {
    status,
    render,
    kind,
    fps: data?.fps ?? 25,
    durationMs: data?.durationMs ?? null,
    /** The rendition that plays: the proxy once ready, else a browser-playable original. */
    playUrl: proxyUrl ?? originalUrl,
    proxy,
    sheet: sheetUrl && sheet?.layout ? { url: sheetUrl, layout: sheet.layout } : null,
    waveform,
    waveformUrl: readyUrl(waveform),
    pages,
    pageCount: data?.pageCount ?? (pages.length || null),
    originalUrl,
    /** The original's link is on its way: what plays is not known yet. */
    originalPending: original.pending,
  };
}

export type MediaSources = ReturnType<typeof useMediaSources>;
