import { useState } from "react";
import { LoadError } from "@/web/components/load-error";
import { useMediaSources } from "../hooks/use-media-sources";
import { useReportPosition } from "../hooks/use-report-position";
import type { ViewerRequest } from "../viewer-store";
import { AudioView } from "./audio-view";
import { ImageView } from "./image-view";
import { PdfView } from "./pdf-view";
import { VideoView } from "./video-view";

/** Shows one file or kept version by its kind. */
export function MediaView({ request, title }: { request: ViewerRequest; title: string }) {
  const { target, at, markers } = request;
  const sources = useMediaSources(target);
  const [page, setPage] = useState(at?.page ?? 0);
  const { kind, status } = sources;
  useReportPosition(kind === "pdf" ? target : undefined, { timeMs: null, page, fps: null }, true);
  if (kind === "video")
    return (
      <VideoView
        sources={sources}
        title={title}
        startMs={at?.timeMs}
        markers={markers}
        target={target}
      />
    );
  if (kind === "audio")
    return (
      <AudioView
        sources={sources}
        title={title}
        startMs={at?.timeMs}
        markers={markers}
        target={target}
      />
    );
  if (kind === "pdf")
    return <PdfView sources={sources} title={title} page={page} onPage={setPage} />;
  if (kind === "image") return <ImageView target={target} sources={sources} title={title} />;
  return (
    <div className="flex flex-1 items-center justify-center bg-neutral-900 p-6 text-sm text-white/85">
      {status.isPending ? (
        <p role="status">Loading…</p>
      ) : status.isError ? (
        <LoadError
          title="Could not load the preview"
          error={status.error}
          onRetry={() => void status.refetch()}
        />
      ) : (
        <p>There is no preview of this file: it is not a video, audio, image or PDF.</p>
      )}
    </div>
  );
}
