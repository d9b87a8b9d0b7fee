import { type KeyboardEvent, type PointerEvent, useState } from "react";
import { type MediaSources, useMediaSources } from "../hooks/use-media-sources";
import { useViewerCommands } from "../hooks/use-viewer-commands";
import type { ViewerRequest, ViewerTarget } from "../viewer-store";
import { CompareAudio, CompareVideos } from "./compare-media";
import { useImageUrls } from "./image-view";
import { PageControls, PdfPage, pageAfter } from "./pdf-view";
import { titleOf } from "./viewer-title";

/** Two PDFs page by page in step. */
function ComparePdfs({
  sides,
  names,
  start,
}: {
  sides: [MediaSources, MediaSources];
  names: [string, string];
  start: number;
}) {
  const [page, setPage] = useState(start);
  const pageCount = Math.max(sides[0].pageCount ?? 0, sides[1].pageCount ?? 0) || null;
  useViewerCommands((c) => {
    const next = pageAfter(c, page, pageCount);
    if (next === null) return false;
    setPage(next);
    return true;
  });
  const shown = [
    { side: "left", s: sides[0], name: names[0] },
    { side: "right", s: sides[1], name: names[1] },
  ];
  return (
    <div className="flex min-h-0 flex-1 flex-col bg-neutral-900">
      <div className="grid min-h-0 flex-1 grid-cols-1 gap-2 overflow-auto p-2 md:grid-cols-2">
        {shown.map(({ side, s, name }) => (
          <figure key={side} className="flex min-h-0 flex-col items-center justify-center">
            {page < (s.pageCount ?? Number.POSITIVE_INFINITY) ? (
              <PdfPage sources={s} page={page} title={name} />
            ) : (
              <p className="p-6 text-sm text-white/85">This version has no page {page + 1}.</p>
            )}
            <figcaption className="p-1 text-xs text-white/85">{name}</figcaption>
          </figure>
        ))}
      </div>
      <div className="p-2">
        <PageControls page={page} pageCount={pageCount} onPage={setPage} />
      </div>
    </div>
  );
}

/** Two images one over the other, a divider to drag (or arrow) across to wipe between them. */
function WipeImages({
  targets,
  sides,
  names,
}: {
  targets: [ViewerTarget, ViewerTarget];
  sides: [MediaSources, MediaSources];
  names: [string, string];
}) {
  const left = useImageUrls(targets[0], sides[0]);
  const right = useImageUrls(targets[1], sides[1]);
  const [split, setSplit] = useState(50);
  const [dragging, setDragging] = useState(false);
  const move = (e: PointerEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    setSplit(Math.min(100, Math.max(0, ((e.clientX - rect.left) / rect.width) * 100)));
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const step = e.key === "ArrowLeft" ? -5 : e.key === "ArrowRight" ? 5 : 0;
    if (!step) return;
    e.preventDefault();
    e.stopPropagation();
    setSplit((s) => Math.min(100, Math.max(0, s + step)));
  };
  const image = (url: string | null, i: number) =>
    url ? (
      <img
        src={url}
        alt={names[i]}
        draggable={false}
        className="absolute inset-0 size-full select-none object-contain"
      />
    ) : null;
  return (
    <div
      className="relative min-h-0 flex-1 touch-none overflow-hidden bg-neutral-900"
      data-testid="wipe"
      onPointerDown={(e) => {
        setDragging(true);
        e.currentTarget.setPointerCapture(e.pointerId);
        move(e);
      }}
      onPointerMove={(e) => dragging && move(e)}
      onPointerUp={() => setDragging(false)}
    >
      {image(right.full ?? right.thumbnail, 1)}
      <div className="absolute inset-0" style={{ clipPath: `inset(0 ${100 - split}% 0 0)` }}>
        {image(left.full ?? left.thumbnail, 0)}
      </div>
      <div
        role="slider"
        tabIndex={0}
        aria-label={`Divider between ${names[0]} and ${names[1]}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(split)}
        className="absolute inset-y-0 w-1 -translate-x-1/2 cursor-ew-resize bg-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        style={{ left: `${split}%` }}
        onKeyDown={onKeyDown}
      />
      <p className="absolute bottom-2 left-2 rounded bg-black/60 px-2 py-0.5 text-xs">{names[0]}</p>
      <p className="absolute bottom-2 right-2 rounded bg-black/60 px-2 py-0.5 text-xs">
        {names[1]}
      </p>
    </div>
  );
}

/** Two versions side by side, each kind its own way; stacked on a phone. */
export function CompareView({
  left,
  right,
  at,
}: {
  left: ViewerTarget;
  right: ViewerTarget;
  at?: ViewerRequest["at"];
}) {
  const a = useMediaSources(left);
  const b = useMediaSources(right);
  const sides: [MediaSources, MediaSources] = [a, b];
  const names: [string, string] = [titleOf(left), titleOf(right)];
  const kind = a.kind ?? b.kind;
  if (kind === "video") return <CompareVideos sides={sides} names={names} startMs={at?.timeMs} />;
  if (kind === "audio") return <CompareAudio sides={sides} names={names} startMs={at?.timeMs} />;
  if (kind === "pdf") return <ComparePdfs sides={sides} names={names} start={at?.page ?? 0} />;
  if (kind === "image") return <WipeImages targets={[left, right]} sides={sides} names={names} />;
  return (
    <p role="status" className="flex flex-1 items-center justify-center p-6 text-sm text-white/85">
      {a.status.isPending || b.status.isPending
        ? "Loading…"
        : "These files cannot be compared here."}
    </p>
  );
}
