import { create } from "zustand";

export type FilesLayout = "list" | "grid";

interface FilesViewState {
  layout: FilesLayout;
  detailsOpen: boolean;
  setLayout(layout: FilesLayout): void;
  setDetailsOpen(open: boolean): void;
}

const STORAGE_KEY = "consign.files.view";

// By hand rather than zustand's persist middleware, which would add ~3 KB to the Files page.
function stored(): Pick<FilesViewState, "layout" | "detailsOpen"> {
  try {
    const v = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "{}") as Record<string, unknown>;
    return { layout: v.layout === "grid" ? "grid" : "list", detailsOpen: v.detailsOpen === true };
  } catch {
    return { layout: "list", detailsOpen: false };
  }
}

/** How the person likes to browse, remembered on this device. */
export const useFilesViewStore = create<FilesViewState>()((set, get) => {
  const save = (patch: Partial<FilesViewState>) => {
    set(patch);
    const { layout, detailsOpen } = get();
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ layout, detailsOpen }));
  };
  return {
    ...stored(),
    setLayout: (layout) => save({ layout }),
    setDetailsOpen: (detailsOpen) => save({ detailsOpen }),
  };
});
