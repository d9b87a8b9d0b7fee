// The viewer's compact player for a part of a page (the review inspector): a public entry apart
// from the index, which sits in the shell's chunk, so Files carries not even this stub (+84 bytes
// gzip on the way to Files through the index). The player itself loads when first shown.

import { lazyWithRetry } from "@/web/components/lazy-with-retry";

export type { InlinePlayerProps } from "./components/inline-player";
export const InlinePlayer = lazyWithRetry(() => import("./components/inline-player"));
