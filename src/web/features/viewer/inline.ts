// The viewer's compact player for a part of a page (the review inspector): a public entry apart
// from the index, which sits in the shell's chunk, so Files carries not even this stub (through the
// index: +84 bytes gzip on the way to Files). The player itself loads when first shown.

import { lazyWithRetry } from "@/web/components/lazy-with-retry";
import type { InlinePlayerProps } from "./components/inline-player";

// From the full viewer's chunk: one chunk of the views both show, not a third chunk split out of
// the two (whose name joined the shell's preload list: +24 bytes gzip on the way to Files).
export const InlinePlayer = lazyWithRetry<InlinePlayerProps>(() =>
  import("./components/viewer-dialog").then((m) => ({ default: m.InlinePlayer })),
);
