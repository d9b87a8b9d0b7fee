import { CheckIcon, MinusIcon, PlayIcon, XIcon } from "lucide-react";
import { formatBytes } from "@/browser/format";
import type { PortalUpload, PortalUploadFile } from "@/contract/portals";
import { Button } from "@/web/components/ui/button";
import { cn } from "@/web/lib/cn";
import { shownPath } from "../state/upload-paths";
import { canPreview } from "./upload-preview";

/** A duration as m:ss, as a player shows it. */
export const duration = (ms: number | null) => {
  if (ms === null) return null;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

/** What a file is: the probe's container and codecs for media, else its MIME type. */
function typeOf(f: PortalUploadFile) {
  if (!f.media) return f.mime ?? "—";
  const codecs = [...f.media.videoCodecs, ...f.media.audioCodecs].join(", ");
  return [f.media.container, codecs].filter(Boolean).join(" · ") || (f.mime ?? "—");
}

const COLUMNS = ["File", "Type", "Duration", "Resolution", "SHA-256"];

const muted = <span className="text-muted-foreground">—</span>;

/** Chooses the file the inspector's player shows, before the decision. */
function PreviewButton({
  file,
  name,
  chosen,
  onChoose,
}: {
  file: PortalUploadFile;
  name: string;
  chosen: boolean;
  onChoose(path: string): void;
}) {
  if (!canPreview(file)) return null;
  return (
    <Button
      size="icon-sm"
      variant={chosen ? "outline" : "ghost"}
      aria-label={`Preview ${name}`}
      aria-pressed={chosen}
      title="Preview"
      onClick={() => onChoose(file.path)}
    >
      <PlayIcon aria-hidden="true" />
    </Button>
  );
}

/** The landed bytes against the sender's SHA-256: matches, differs, or nothing to compare. */
function Sha256Cell({ file }: { file: PortalUploadFile }) {
  const verdict =
    file.sha256Matches === true ? (
      <span className="inline-flex items-center gap-1 text-success">
        <CheckIcon aria-hidden="true" className="size-3.5" /> Matches
      </span>
    ) : file.sha256Matches === false ? (
      <span className="inline-flex items-center gap-1 text-destructive-text">
        <XIcon aria-hidden="true" className="size-3.5" /> Differs
      </span>
    ) : (
      <span className="inline-flex items-center gap-1 text-muted-foreground">
        <MinusIcon aria-hidden="true" className="size-3.5" />
        {file.senderSha256 === null ? "Not sent" : "Unknown"}
      </span>
    );
  const hash = file.sha256 ?? file.senderSha256;
  return (
    <>
      {verdict}
      {hash && (
        <code className="block font-mono text-[0.7rem] text-muted-foreground" title={hash}>
          {hash.slice(0, 8)}…
        </code>
      )}
    </>
  );
}

/**
 * The shown files, one row each: type, duration and picture size (what ffprobe found), and
 * whether the landed bytes' SHA-256 is the one the sender's page computed. It scrolls sideways
 * rather than squeezing the names on a phone.
 */
export function UploadFilesTable({
  upload,
  chosen,
  onChoose,
}: {
  upload: PortalUpload;
  /** The file the inspector's player shows. */
  chosen: string | null;
  onChoose(path: string): void;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region takes the keyboard.
    <section className="overflow-x-auto" tabIndex={0} aria-label="The upload’s files">
      <table className="w-full min-w-[20rem] text-left text-xs">
        <thead className="text-muted-foreground">
          <tr>
            {COLUMNS.map((c) => (
              <th key={c} scope="col" className="py-1 pr-2 font-medium last:pr-0">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {upload.files.map((f) => (
            <tr
              key={f.path}
              className={cn("border-t border-border align-top", f.path === chosen && "bg-muted")}
            >
              <th scope="row" className="max-w-40 py-1 pr-2 font-normal">
                <span className="flex items-center gap-1">
                  <span className="min-w-0 truncate" title={f.path}>
                    {shownPath(upload, f.path)}
                  </span>
                  <PreviewButton
                    file={f}
                    name={shownPath(upload, f.path)}
                    chosen={f.path === chosen}
                    onChoose={onChoose}
                  />
                </span>
                <span className="tabular-nums text-muted-foreground">{formatBytes(f.size)}</span>
              </th>
              <td className="break-words py-1 pr-2">{typeOf(f)}</td>
              <td className="py-1 pr-2 tabular-nums">
                {duration(f.media?.durationMs ?? null) ?? muted}
              </td>
              <td className="py-1 pr-2 tabular-nums">
                {f.media?.width && f.media.height ? `${f.media.width}×${f.media.height}` : muted}
              </td>
              <td className="py-1">
                <Sha256Cell file={f} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
