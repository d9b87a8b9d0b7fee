import { transferClients } from "@/contract/rules";
import { FormField } from "@/web/components/ui/form-field";
import { NativeSelect } from "@/web/components/ui/native-select";
import type { TransfersSearch } from "../transfers-search";

type Filters = Omit<TransfersSearch, "transfer">;

const statusOptions: { value: string; label: string }[] = [
  { value: "", label: "All" },
  { value: "active", label: "Active" },
  { value: "running", label: "Running" },
  { value: "paused", label: "Paused" },
  { value: "queued", label: "Queued" },
  { value: "completed", label: "Completed" },
  { value: "failed", label: "Failed" },
  { value: "cancelled", label: "Cancelled" },
];

/** Status, direction and client, kept in the address (so a filtered view can be shared). */
export function TransfersFilters({
  filters,
  onChange,
}: {
  filters: Filters;
  onChange(filters: Filters): void;
}) {
  const set = (change: Partial<Record<keyof Filters, string>>) =>
    onChange(
      Object.fromEntries(
        Object.entries({ ...filters, ...change }).map(([k, v]) => [k, v || undefined]),
      ) as Filters,
    );
  return (
    <search
      aria-label="Filter the transfers"
      className="flex flex-wrap items-end gap-3 border-b border-border px-4 py-3"
    >
      <FormField label="Status" className="flex-[1_1_8rem] sm:flex-none">
        {(control) => (
          <NativeSelect
            {...control}
            value={filters.status ?? ""}
            onChange={(e) => set({ status: e.target.value })}
          >
            {statusOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>
      <FormField label="Direction" className="flex-[1_1_8rem] sm:flex-none">
        {(control) => (
          <NativeSelect
            {...control}
            value={filters.direction ?? ""}
            onChange={(e) => set({ direction: e.target.value })}
          >
            <option value="">Both</option>
            <option value="send">Uploads (send)</option>
            <option value="receive">Downloads (receive)</option>
          </NativeSelect>
        )}
      </FormField>
      <FormField label="Client" className="flex-[1_1_8rem] sm:flex-none">
        {(control) => (
          <NativeSelect
            {...control}
            value={filters.client ?? ""}
            onChange={(e) => set({ client: e.target.value })}
          >
            <option value="">Any</option>
            {transferClients.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>
    </search>
  );
}
