import path from "node:path";
import { Mime } from "mime";
import otherTypes from "mime/types/other.js";
import standardTypes from "mime/types/standard.js";

/**
 * The `mime` package's tables (IANA and common vendor types), corrected where a media workflow
 * needs another answer. `image/aces` is the ACES container, a constrained kind of OpenEXR;
 * most `.exr` files are not ACES. `audio/flac` is the registered type (`mime` still has the
 * `x-` one). Camera raw clips and edit decision lists have no registered type at all.
 */
const media = new Mime(standardTypes, otherTypes).define(
  {
    "image/x-exr": ["exr"],
    "audio/flac": ["flac"],
    "video/x-r3d": ["r3d"],
    "video/x-braw": ["braw"],
    "text/plain": ["edl"],
  },
  true,
);

/** The content type of a file by its name's extension; a name without one is plain bytes. */
export function mimeFor(name: string): string {
  // extname, not the name: `mime` would take a bare name like "txt" for an extension.
  const ext = path.extname(name);
  return (ext && media.getType(ext)) || "application/octet-stream";
}
