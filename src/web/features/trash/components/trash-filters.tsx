import { SearchIcon } from "lucide-react";
import { FormField } from "@/web/components/ui/form-field";
import { Input } from "@/web/components/ui/input";
import { NativeSelect } from "@/web/components/ui/native-select";
import {
  type DeletedWithin,
  deletedWithinOptions,
  type TrashFilter,
} from "@/web/features/trash/trash-filter";

export function TrashFilters({
  filter,
  folders,
  onText,
  onChange,
}: {
  filter: TrashFilter;
  folders: string[];
  onText(text: string): void;
  onChange(filter: TrashFilter): void;
}) {
  return (
    <search
      aria-label="Filter the trash"
      className="flex flex-wrap items-end gap-3 border-b border-border px-4 py-3"
    >
      <FormField label="Filter by name or path" className="min-w-48 flex-[1_1_16rem]">
        {(control) => (
          <div className="relative">
            <SearchIcon
              className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-muted-foreground"
              aria-hidden="true"
            />
            <Input
              {...control}
              type="search"
              className="pl-8"
              value={filter.text}
              placeholder="e.g. report.pdf"
              onChange={(e) => onText(e.target.value)}
            />
          </div>
        )}
      </FormField>
      <FormField label="Deleted" className="flex-[1_1_9rem] sm:flex-none">
        {(control) => (
          <NativeSelect
            {...control}
            value={filter.deletedWithin}
            onChange={(e) =>
              onChange({ ...filter, deletedWithin: e.target.value as DeletedWithin })
            }
          >
            {deletedWithinOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>
      <FormField label="Deleted from" className="min-w-0 flex-[1_1_9rem] sm:flex-none">
        {(control) => (
          <NativeSelect
            {...control}
            className="w-full sm:max-w-64"
            value={filter.folder}
            onChange={(e) => onChange({ ...filter, folder: e.target.value })}
          >
            <option value="">Any folder</option>
            {/* A folder from the URL that holds nothing now stays choosable, so it can be seen. */}
            {(filter.folder && !folders.includes(filter.folder)
              ? [filter.folder, ...folders]
              : folders
            ).map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>
    </search>
  );
}
