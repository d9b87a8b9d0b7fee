// What other features and the routes may use of the viewer: the store that opens it and the host
// the shell mounts. The viewer itself loads when something is first shown.

export { mediaKindOf } from "@/contract/media-rules";
export type { StreamLink } from "./stream-link";
export { ViewerHost } from "./viewer-host";
export {
  useViewerStore,
  type ViewerMarker,
  type ViewerRequest,
  type ViewerTarget,
} from "./viewer-store";
