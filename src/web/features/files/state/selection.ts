/**
 * Which entries of one folder are selected, keyed by path. "Select all" in a 100,000-entry folder
 * must not touch every row, so it is stored as "all except these" rather than as a set of paths.
 */
export type Selection =
  | { mode: "some"; ids: ReadonlySet<string> }
  | { mode: "all"; except: ReadonlySet<string> };

export const emptySelection: Selection = { mode: "some", ids: new Set() };

export const selectAll = (): Selection => ({ mode: "all", except: new Set() });

export const selectOnly = (path: string): Selection => ({ mode: "some", ids: new Set([path]) });

export const selectPaths = (paths: Iterable<string>): Selection => ({
  mode: "some",
  ids: new Set(paths),
});

export function isSelected(selection: Selection, path: string): boolean {
  return selection.mode === "all" ? !selection.except.has(path) : selection.ids.has(path);
}

export function toggle(selection: Selection, path: string): Selection {
  const flip = (set: ReadonlySet<string>) => {
    const next = new Set(set);
    if (!next.delete(path)) next.add(path);
    return next;
  };
  return selection.mode === "all"
    ? { mode: "all", except: flip(selection.except) }
    : { mode: "some", ids: flip(selection.ids) };
}

/** Adds (or with `on: false` removes) a run of paths, as Shift+click with Ctrl held does. */
export function setMany(selection: Selection, paths: Iterable<string>, on: boolean): Selection {
  if (selection.mode === "all") {
    const except = new Set(selection.except);
    for (const p of paths) on ? except.delete(p) : except.add(p);
    return { mode: "all", except };
  }
  const ids = new Set(selection.ids);
  for (const p of paths) on ? ids.add(p) : ids.delete(p);
  return { mode: "some", ids };
}

/** How many entries are selected, given the folder's exact total. */
export function selectedCount(selection: Selection, total: number): number {
  return selection.mode === "all" ? Math.max(0, total - selection.except.size) : selection.ids.size;
}

/** For the header checkbox. */
export function selectionState(selection: Selection, total: number): boolean | "indeterminate" {
  const count = selectedCount(selection, total);
  if (count === 0) return false;
  return count >= total ? true : "indeterminate";
}

/** The selected paths among `paths` (the folder's entries, in order). */
export function pickSelected(selection: Selection, paths: readonly string[]): string[] {
  return paths.filter((p) => isSelected(selection, p));
}

/** The inclusive index range between an anchor and a target, in either direction. */
export function rangeBetween(anchor: number, target: number): [number, number] {
  return anchor <= target ? [anchor, target] : [target, anchor];
}

/** How to select rows lo..hi of a folder: the paths of `spans` (inclusive index ranges) to read. */
export interface RangePlan {
  /** The rows read are the ones left out ("all except"), not the ones selected. */
  invert: boolean;
  spans: [number, number][];
}

/**
 * A range is selected by its own paths or, when the rows outside it sit on fewer pages, as "all
 * except" those: Shift+End from the top of a 100,000-entry folder reads one page, not 500, and
 * no range reads more than half the folder.
 */
export function planRange(lo: number, hi: number, total: number, pageSize: number): RangePlan {
  const pages = ([from, to]: [number, number]) =>
    Math.floor(to / pageSize) - Math.floor(from / pageSize) + 1;
  const outside = (
    [
      [0, lo - 1],
      [hi + 1, total - 1],
    ] as [number, number][]
  ).filter(([from, to]) => from <= to);
  const outsidePages = outside.reduce((n, span) => n + pages(span), 0);
  return pages([lo, hi]) <= outsidePages
    ? { invert: false, spans: [[lo, hi]] }
    : { invert: true, spans: outside };
}

/** The selection a plan stands for, given the paths of its spans. */
export const rangeSelection = (plan: RangePlan, paths: Iterable<string>): Selection =>
  plan.invert ? { mode: "all", except: new Set(paths) } : selectPaths(paths);

/** Everything either selects (Ctrl+Shift adds a range to what was selected). */
export function union(a: Selection, b: Selection): Selection {
  if (b.mode === "some") return setMany(a, b.ids, true);
  if (a.mode === "some") return setMany(b, a.ids, true);
  return { mode: "all", except: new Set([...a.except].filter((p) => b.except.has(p))) };
}

/** After a rename the same entry stays selected under its new path. */
export function renamePath(selection: Selection, from: string, to: string): Selection {
  if (!isSelected(selection, from)) return selection;
  return setMany(setMany(selection, [from], false), [to], true);
}
