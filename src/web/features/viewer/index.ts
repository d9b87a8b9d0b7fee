// What other features and the routes may use of the viewer: the store that opens it and the host
// the shell mounts. The viewer itself loads when something is first shown. (The inline player is
// a second entry, ./inline, so this index, in the shell's chunk, does not carry even its stub.)

export { mediaKindOf } from "@/contract/media-rules";
export type { StreamLink } from "./stream-link";
export { ViewerHost } from "./viewer-host";
export {
  useViewerStore,
  type ViewerMarker,
  type ViewerRequest,
  type ViewerTarget,
} from "./viewer-store";
