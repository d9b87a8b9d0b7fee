import { FileIcon, FolderIcon } from "lucide-react";
import type { ReactNode } from "react";
import { formatBytes, formatDateTime, formatRelative } from "@/browser/format";
import type { TrashItem } from "@/contract/files";
import { DataTable, type DataTableColumn } from "@/web/components/ui/data-table";
import { folderOf } from "@/web/features/trash/trash-filter";
import { cn } from "@/web/lib/cn";

const ROW_HEIGHT = 44;

function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso, Date.now())}
    </time>
  );
}

const columns: DataTableColumn<TrashItem>[] = [
  {
    id: "name",
    header: "Name",
    primary: true,
    cell: (item) => {
      const Icon = item.type === "folder" ? FolderIcon : FileIcon;
      return (
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
      );
    },
  },
  {
    id: "folder",
    header: "Deleted from",
    hideBelow: "md",
    className: "text-muted-foreground",
    cell: (item) => folderOf(item.path) || "Workspace root",
  },
  {
    id: "size",
    header: "Size",
    hideBelow: "sm",
    className: "w-24 text-right tabular-nums text-muted-foreground",
    cell: (item) => formatBytes(item.sizeBytes),
  },
  {
    id: "deleted",
    header: "Deleted",
    hideBelow: "sm",
    className: "w-32 text-muted-foreground",
    cell: (item) => <When iso={item.deletedAt} />,
  },
  {
    id: "purged",
    header: "Purged",
    hideBelow: "md",
    className: "w-36 text-muted-foreground",
    cell: (item) => <When iso={item.purgeAt} />,
  },
];

/**
 * The trash as a table to read and pick from; the service does not page the trash, which can
 * hold thousands, so only the rows in view are rendered.
 */
export function TrashTable({
  items,
  selected,
  onToggle,
  onToggleAll,
  empty,
}: {
  items: TrashItem[];
  selected: ReadonlySet<string>;
  onToggle(id: string): void;
  onToggleAll(): void;
  empty: ReactNode;
}) {
  return (
    <DataTable
      label="Trashed items"
      columns={columns}
      rows={items}
      rowKey={(item) => item.id}
      rowHeight={ROW_HEIGHT}
      empty={empty}
      selection={{
        selected,
        onToggle,
        onToggleAll,
        rowLabel: (item) => `Select ${item.path}`,
        allLabel: "Select all shown",
      }}
    />
  );
}
