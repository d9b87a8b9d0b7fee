import { useNavigate } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import {
  filterFromSearch,
  noTrashFilter,
  searchFromFilter,
  type TrashFilter,
  type TrashSearch,
} from "./trash-filter";

const TEXT_TO_URL_MS = 250;

/**
 * The trash filter, kept in the URL like every page's filters (reload, back and forward keep it).
 * The text filters at once as it is typed and reaches the URL once typing pauses, so a URL that
 * arrives late never overwrites newer keystrokes; a text the URL gets from elsewhere (back,
 * forward, Clear) replaces what is typed.
 */
export function useTrashFilter(search: TrashSearch) {
  const navigate = useNavigate({ from: "/trash" });
  const fromUrl = filterFromSearch(search);
  const [text, setText] = useState(fromUrl.text);
  const sent = useRef(fromUrl.text);

  useEffect(() => {
    if (fromUrl.text === sent.current) return;
    sent.current = fromUrl.text;
    setText(fromUrl.text);
  }, [fromUrl.text]);

  useEffect(() => {
    if (text === sent.current) return;
    const timer = setTimeout(() => {
      sent.current = text;
      void navigate({ search: (s) => ({ ...s, q: text || undefined }), replace: true });
    }, TEXT_TO_URL_MS);
    return () => clearTimeout(timer);
  }, [text, navigate]);

  const setFilter = (next: TrashFilter) => {
    sent.current = next.text;
    setText(next.text);
    void navigate({ search: searchFromFilter(next), replace: true });
  };
  return {
    filter: { ...fromUrl, text } satisfies TrashFilter,
    setText,
    setFilter,
    clear: () => setFilter(noTrashFilter),
  };
}
