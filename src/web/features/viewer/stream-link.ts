import { createContext } from "react";

/**
 * Makes a link to a file's bytes the browser reads with Range (a `<video src>`). Transfers makes
 * it (a receive transfer, as a download does); the route hands it to the viewer, so the viewer's
 * code shares nothing with Transfers and the Files page's first load does not grow.
 */
export type StreamLink = (file: { path: string; size: number }) => Promise<{ url: string }>;

export const StreamLinkContext = createContext<StreamLink | null>(null);
