import { SearchIcon } from "lucide-react";
import { useId } from "react";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import {
  type DeletedWithin,
  deletedWithinOptions,
  type TrashFilter,
} from "@/web/features/trash/trash-filter";

const selectClass =
  "h-9 rounded-md border border-input bg-background px-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";

export function TrashFilters({
  filter,
  folders,
  onChange,
}: {
  filter: TrashFilter;
  folders: string[];
  onChange(filter: TrashFilter): void;
}) {
  const ids = { text: useId(), when: useId(), folder: useId() };
  return (
    <search
      aria-label="Filter the trash"
      className="flex flex-wrap items-end gap-3 border-b border-border px-4 py-3"
    >
      <div className="grid min-w-48 flex-1 gap-1.5">
        <Label htmlFor={ids.text}>Filter by name or path</Label>
        <div className="relative">
          <SearchIcon
            className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            id={ids.text}
            type="search"
            className="pl-8"
            value={filter.text}
            placeholder="e.g. report.pdf"
            onChange={(e) => onChange({ ...filter, text: e.target.value })}
          />
        </div>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={ids.when}>Deleted</Label>
        <select
          id={ids.when}
          className={selectClass}
          value={filter.deletedWithin}
          onChange={(e) => onChange({ ...filter, deletedWithin: e.target.value as DeletedWithin })}
        >
          {deletedWithinOptions.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={ids.folder}>Deleted from</Label>
        <select
          id={ids.folder}
          className={`${selectClass} max-w-64`}
          value={filter.folder}
          onChange={(e) => onChange({ ...filter, folder: e.target.value })}
        >
          <option value="">Any folder</option>
          {folders.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </div>
    </search>
  );
}
