import { keepPreviousData, type UseQueryResult, useQuery } from "@tanstack/react-query";
import { SearchIcon } from "lucide-react";
import { type KeyboardEvent, type RefObject, useEffect, useId, useRef, useState } from "react";
import type { SearchResult } from "@/contract/files";
import { Button } from "@/web/components/ui/button";
import { SEARCH_LIMIT, searchFilesQueryOptions } from "@/web/features/files/api/search-files";
import { filesAriaKeys } from "@/web/features/files/keymap";
import { describeError } from "@/web/lib/api-client";
import { cn } from "@/web/lib/cn";
import { useDebouncedValue } from "@/web/lib/use-debounced-value";
import { FileTypeIcon } from "./file-icon";

/**
 * Names in the current folder and below, as a combobox: typing searches (debounced), arrows
 * move through the results, Enter or a click opens one.
 */
export function SearchBox({
  workspaceId,
  folder,
  inputRef,
  onOpenResult,
}: {
  workspaceId: string;
  folder: string;
  inputRef: RefObject<HTMLInputElement | null>;
  onOpenResult(result: SearchResult): void;
}) {
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [highlight, setHighlight] = useState(0);
  const q = useDebouncedValue(text.trim(), 200);
  const search = useQuery({
    ...searchFilesQueryOptions(workspaceId, folder, q),
    placeholderData: keepPreviousData,
  });
  const ids = { list: useId(), option: useId() };
  const items = q ? (search.data?.items ?? []) : [];
  // Debounced, and showing the previous results meanwhile: what is listed may be for other text.
  const upToDate = q === text.trim() && search.isSuccess && !search.isPlaceholderData;
  /** Enter came before the results for the text did: it opens the best of them when they come. */
  const enterPending = useRef(false);
  const showPanel = open && text.trim().length > 0;
  const current = Math.min(highlight, items.length - 1);
  const expanded = showPanel && items.length > 0;
  const where = folder ? `“${folder}”` : "all files";

  const choose = (result: SearchResult | undefined) => {
    enterPending.current = false;
    if (!result) return;
    setText("");
    setOpen(false);
    inputRef.current?.blur();
    onOpenResult(result);
  };

  useEffect(() => {
    if (enterPending.current && upToDate) choose(items[0]);
  });

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setOpen(true);
      const delta = e.key === "ArrowDown" ? 1 : -1;
      setHighlight((h) => Math.max(0, Math.min(items.length - 1, h + delta)));
    } else if (e.key === "Enter") {
      e.preventDefault();
      if (upToDate) choose(items[Math.max(0, current)]);
      else enterPending.current = text.trim() !== "";
    } else if (e.key === "Escape") {
      e.preventDefault();
      enterPending.current = false;
      if (showPanel) setOpen(false);
      else {
        setText("");
        inputRef.current?.blur();
      }
    }
  };

  return (
    <div className="relative w-full sm:w-72">
      <SearchIcon
        className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-muted-foreground"
        aria-hidden="true"
      />
      <input
        ref={inputRef}
        type="search"
        role="combobox"
        aria-label={`Search ${where}`}
        aria-expanded={expanded}
        aria-controls={expanded ? ids.list : undefined}
        aria-autocomplete="list"
        aria-activedescendant={expanded ? `${ids.option}-${current}` : undefined}
        aria-keyshortcuts={filesAriaKeys("search")}
        placeholder="Search (press /)"
        value={text}
        onChange={(e) => {
          enterPending.current = false;
          setText(e.target.value);
          setHighlight(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => {
          enterPending.current = false;
          setOpen(false);
        }}
        onKeyDown={onKeyDown}
        className="flex h-9 w-full rounded-md border border-input bg-background py-1 pl-8 pr-3 text-sm placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      />
      {/* biome-ignore lint/a11y/noStaticElementInteractions: only keeps focus in the field while a result or button is clicked */}
      <div
        className={cn(
          "absolute right-0 top-full z-40 mt-1 w-[min(32rem,calc(100vw-2rem))] overflow-hidden rounded-md border border-border bg-card shadow-lg",
          !showPanel && "hidden",
        )}
        onMouseDown={(e) => e.preventDefault()}
      >
        {showPanel && (
          <SearchStatus
            search={search}
            q={q}
            searching={q !== text.trim() || search.isPending}
            found={items.length}
            where={where}
          />
        )}
        {expanded && (
          <ResultList
            ids={ids}
            where={where}
            items={items}
            current={current}
            onChoose={choose}
            onHighlight={setHighlight}
          />
        )}
        {showPanel && items.length >= SEARCH_LIMIT && (
          <p className="border-t border-border px-3 py-1.5 text-xs text-muted-foreground">
            The first {SEARCH_LIMIT} matches: type more to narrow them down.
          </p>
        )}
      </div>
    </div>
  );
}

/** Why no results are listed: the search failed, is under way, or found nothing. */
function SearchStatus({
  search,
  q,
  searching,
  found,
  where,
}: {
  search: UseQueryResult<unknown>;
  /** The text searched for. */
  q: string;
  /** The results for the text typed are yet to come. */
  searching: boolean;
  found: number;
  where: string;
}) {
  return search.isError ? (
    <div role="alert" className="grid gap-2 p-3 text-sm">
      <p>Search failed: {describeError(search.error)}</p>
      <Button size="sm" variant="outline" onClick={() => void search.refetch()}>
        Try again
      </Button>
    </div>
  ) : searching && found === 0 ? (
    <p role="status" className="p-3 text-sm text-muted-foreground">
      Searching…
    </p>
  ) : found === 0 ? (
    <p role="status" className="p-3 text-sm text-muted-foreground">
      No names contain “{q}” in {where}.
    </p>
  ) : null;
}

function ResultList({
  ids,
  where,
  items,
  current,
  onChoose,
  onHighlight,
}: {
  /** The listbox's id, and what each option's id is with its index. */
  ids: { list: string; option: string };
  where: string;
  items: SearchResult[];
  current: number;
  onChoose(result: SearchResult): void;
  onHighlight(index: number): void;
}) {
  return (
    <div
      id={ids.list}
      role="listbox"
      aria-label={`Matches in ${where}`}
      className="max-h-96 overflow-y-auto py-1"
    >
      {items.map((item, i) => (
        // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox field handles the keys
        <div
          key={item.path}
          id={`${ids.option}-${i}`}
          role="option"
          aria-selected={i === current}
          tabIndex={-1}
          onClick={() => onChoose(item)}
          onMouseMove={() => onHighlight(i)}
          className={cn(
            "flex cursor-default items-center gap-2 px-3 py-1.5 text-sm",
            i === current && "bg-accent",
          )}
        >
          <FileTypeIcon entry={item} className="size-4 shrink-0" />
          <span className="min-w-0 flex-1 truncate">{item.name}</span>
          <span className="max-w-[50%] truncate text-xs text-muted-foreground">
            {item.folder || "Files"}
          </span>
        </div>
      ))}
    </div>
  );
}
