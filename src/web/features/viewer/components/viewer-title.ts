import { baseName } from "@/contract/rules";
import type { ViewerTarget } from "../viewer-store";

/** What the viewer calls a file or version: its given title, else its name. */
export const titleOf = (t: ViewerTarget) => t.title ?? baseName(t.path);
