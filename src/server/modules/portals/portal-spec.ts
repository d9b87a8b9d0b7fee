import { PORTAL_UPLOAD_FILES_SHOWN } from "@/contract/portal-rules";
import type { MediaInfo, PortalSpec, SpecCheck } from "@/contract/portals";
import type { AppDeps } from "@/server/deps";
import { isAudioVisual, isMedia, type Probe, probe } from "@/server/media/probe";
import type { JobKind } from "@/server/workers/job-runner";
import { portalRow, uploadRow } from "./portals.repository";
import { specOf } from "./portals.service";
import { committedFiles, recordSpecCheck, setFilesShown } from "./upload-review.repository";
import type { StoredFile } from "./upload-view";

/**
 * Job kind that probes a landed upload's media with ffprobe and checks it against its portal's
 * spec, if it has one (the name is older than the probe of every upload).
 */
export const SPEC_CHECK_JOB = "portals.spec-check";
/**
 * The container names a file answers to. ffprobe reads QuickTime and MP4 with one demuxer
 * (`mov,mp4,m4a,3gp,3g2,mj2`), so for those the file's brand tells: `qt` is a MOV, any other
 * an MP4. Other demuxers' names are taken as they are (`matroska,webm` answers to both).
 */
export function containersOf(probe: Probe): string[] {
  const names = probe.format?.format_name?.split(",") ?? [];
  if (!names.includes("mov")) return names;
  return probe.format?.tags?.major_brand?.trim() === "qt" ? ["mov"] : ["mp4"];
}

/**
 * One file against the spec: ffprobe's container names (`mov,mp4,m4a,3gp,3g2,mj2` is one
 * demuxer for several) must include an accepted one, every video stream's codec must be
 * accepted, and there must be a video stream at all.
 */
const codecsOf = (probe: Probe | null, type: "video" | "audio") =>
  (probe?.streams ?? [])
    .filter((s) => s.codec_type === type && s.codec_name)
    .map((s) => s.codec_name!);

/** What a probe says of a file: its container, codecs, duration and picture size. */
export function mediaOf(probe: Probe | null): MediaInfo {
  const video = probe?.streams?.find((s) => s.codec_type === "video");
  return {
    container: probe ? containersOf(probe).join(",") || null : null,
    videoCodecs: codecsOf(probe, "video"),
    audioCodecs: codecsOf(probe, "audio"),
    durationMs:
      probe?.format?.duration !== undefined
        ? Math.round(Number(probe.format.duration) * 1000) || null
        : null,
    width: video?.width ?? null,
    height: video?.height ?? null,
  };
}

export function judge(spec: PortalSpec, path: string, probe: Probe | null) {
  const { audioCodecs: _, ...media } = mediaOf(probe);
  const file = { path, ...media };
  const problems: string[] = [];
  if (!probe) problems.push("ffprobe could not read it as media");
  else {
    const containers = containersOf(probe);
    if (spec.containers.length > 0 && !containers.some((c) => spec.containers.includes(c)))
      problems.push(
        `container ${file.container ?? "unknown"}, expected ${spec.containers.join(" or ")}`,
      );
    if (file.videoCodecs.length === 0) problems.push("no video stream");
    const wrong = file.videoCodecs.filter((c) => !spec.videoCodecs.includes(c));
    if (spec.videoCodecs.length > 0 && wrong.length > 0)
      problems.push(`video codec ${wrong.join(", ")}, expected ${spec.videoCodecs.join(" or ")}`);
  }
  return { file, problems };
}

/**
 * Probes the upload's media: the audio and video files among those its record shows get what
 * ffprobe found (every upload, spec or not: the reviewer reads type, duration and resolution),
 * and, when the portal has a spec, every video file is checked against it and the verdict
 * stored: `failed` with each problem when one breaks it, else `passed`. Idempotent: a rerun
 * after a restart probes again and writes the same.
 */
export function specCheckJob(deps: AppDeps): JobKind {
  return {
    maxAttempts: 3,
    run: async (payload) => {
      const { uploadId } = payload as { uploadId: string };
      const upload = uploadRow(deps.db, uploadId);
      const portal = upload && portalRow(deps.db, upload.portal_id);
      if (!upload?.transfer_id || !portal) return;
      const spec = specOf(portal);
      const files: SpecCheck["files"] = [];
      const problems: SpecCheck["problems"] = [];
      const media = new Map<number, MediaInfo>();
      for (const [i, f] of committedFiles(deps.db, upload.transfer_id).entries()) {
        const shown = i < PORTAL_UPLOAD_FILES_SHOWN && isAudioVisual(f.path);
        const checked = spec !== null && isMedia(f.path);
        if (!(shown || checked) || !f.sha256) continue;
        // ffprobe reads the stored bytes where the files module's blob store keeps them.
        const probed = await probe(await deps.files.blobs.localPath(f.sha256));
        if (shown && probed) media.set(i, mediaOf(probed));
        if (!checked) continue;
        const verdict = judge(spec, f.path, probed);
        files.push(verdict.file);
        for (const message of verdict.problems) problems.push({ path: f.path, message });
      }
      deps.db
        .transaction(() => {
          // Read again under the lock: an approval may have moved the folder meanwhile.
          const now = uploadRow(deps.db, uploadId)!;
          if (media.size > 0) {
            const stored = JSON.parse(now.files_shown) as StoredFile[];
            const probedFiles = stored.map((f, i) => ({ ...f, media: media.get(i) ?? null }));
            setFilesShown(deps.db, uploadId, JSON.stringify(probedFiles));
          }
          if (!spec) return;
          if (files.length === 0)
            problems.push({ path: now.folder_path, message: "no video file to check" });
          recordSpecCheck(deps.db, uploadId, {
            status: problems.length > 0 ? "failed" : "passed",
            result: JSON.stringify({ problems, files }),
            now: deps.clock.now(),
          });
        })
        .immediate();
    },
  };
}
