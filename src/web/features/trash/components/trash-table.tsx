import { useVirtualizer } from "@tanstack/react-virtual";
import { FileIcon, FolderIcon } from "lucide-react";
import { useRef } from "react";
import type { TrashItem } from "@/contract/files";
import { NativeCheckbox } from "@/web/components/ui/native-checkbox";
import { folderOf } from "@/web/features/trash/trash-filter";
import { cn } from "@/web/lib/cn";
import { formatBytes, formatDateTime, formatRelative } from "@/web/lib/format";

const ROW_HEIGHT = 44;

/**
 * A real table (the trash is a list to read and pick from, not a grid to navigate), with only
 * the rows in view rendered: the service does not page the trash, which can hold thousands.
 */
export function TrashTable({
  items,
  selected,
  onToggle,
  onToggleAll,
}: {
  items: TrashItem[];
  selected: ReadonlySet<string>;
  onToggle(id: string): void;
  onToggleAll(): void;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const rows = virtualizer.getVirtualItems();
  const before = rows[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (rows.at(-1)?.end ?? 0);
  const selectedHere = items.reduce((n, i) => n + (selected.has(i.id) ? 1 : 0), 0);
  const now = Date.now();

  return (
    <div ref={scrollRef} className="min-h-0 flex-1 overflow-auto" data-testid="trash-scroller">
      <table className="w-full table-fixed border-collapse text-sm">
        <caption className="sr-only">Trashed items</caption>
        <thead className="sticky top-0 z-10 bg-background shadow-[0_1px_0_var(--border)]">
          <tr className="h-9 text-left text-xs text-muted-foreground">
            <th scope="col" className="w-10 px-3">
              <NativeCheckbox
                aria-label="Select all shown"
                checked={
                  selectedHere === 0
                    ? false
                    : selectedHere === items.length
                      ? true
                      : "indeterminate"
                }
                onChange={onToggleAll}
              />
            </th>
            <th scope="col" className="px-2 font-medium">
              Name
            </th>
            <th scope="col" className="hidden px-2 font-medium md:table-cell">
              Deleted from
            </th>
            <th scope="col" className="w-24 px-2 text-right font-medium">
              Size
            </th>
            <th scope="col" className="w-36 px-2 font-medium">
              Deleted
            </th>
            <th scope="col" className="w-40 px-2 font-medium">
              Purged
            </th>
          </tr>
        </thead>
        <tbody>
          {before > 0 && (
            <tr style={{ height: before }}>
              <td colSpan={6} />
            </tr>
          )}
          {rows.map((row) => {
            const item = items[row.index]!;
            const checked = selected.has(item.id);
            const Icon = item.type === "folder" ? FolderIcon : FileIcon;
            return (
              <tr
                key={item.id}
                style={{ height: ROW_HEIGHT }}
                className={cn(
                  "border-b border-border",
                  checked ? "bg-selected" : "hover:bg-accent",
                )}
              >
                <td className="px-3">
                  <NativeCheckbox
                    aria-label={`Select ${item.path}`}
                    checked={checked}
                    onChange={() => onToggle(item.id)}
                  />
                </td>
                <td className="truncate px-2">
                  <span className="flex min-w-0 items-center gap-2">
                    <Icon
                      className={cn(
                        "size-4 shrink-0",
                        item.type === "folder" ? "text-link" : "text-muted-foreground",
                      )}
                      aria-hidden="true"
                    />
                    <span className="truncate" title={item.path}>
                      {item.name}
                    </span>
                    <span className="sr-only">{item.type === "folder" ? "(folder)" : ""}</span>
                  </span>
                </td>
                <td className="hidden truncate px-2 text-muted-foreground md:table-cell">
                  {folderOf(item.path) || "Workspace root"}
                </td>
                <td className="px-2 text-right tabular-nums text-muted-foreground">
                  {formatBytes(item.sizeBytes)}
                </td>
                <td className="truncate px-2 text-muted-foreground">
                  <time dateTime={item.deletedAt} title={formatDateTime(item.deletedAt)}>
                    {formatRelative(item.deletedAt, now)}
                  </time>
                </td>
                <td className="truncate px-2 text-muted-foreground">
                  <time dateTime={item.purgeAt} title={formatDateTime(item.purgeAt)}>
                    {formatRelative(item.purgeAt, now)}
                  </time>
                </td>
              </tr>
            );
          })}
          {after > 0 && (
            <tr style={{ height: after }}>
              <td colSpan={6} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
