import { describe, expect, it } from "vitest";
import { PageCache } from "./listing.service";

describe("PageCache", () => {
  it("serves a page it holds, and renders again once a smaller budget has pushed it out", () => {
    const cache = new PageCache(100);
    let renders = 0;
    const render = () => `page ${++renders}`;
    expect(cache.get("a", render)).toBe("page 1");
    expect(cache.get("a", render)).toBe("page 1");
    cache.resize(0);
    expect(cache.get("a", render)).toBe("page 2");
    expect(cache.get("a", render)).toBe("page 3");
  });

  it("keeps within its budget by dropping the least recently used pages", () => {
    const cache = new PageCache(10);
    cache.get("a", () => "aaaa");
    cache.get("b", () => "bbbb");
    cache.get("a", () => "not read");
    cache.get("c", () => "cccc");
    expect(cache.get("a", () => "again")).toBe("aaaa");
    expect(cache.get("b", () => "again")).toBe("again");
  });
});
