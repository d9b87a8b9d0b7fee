import { useId, useState } from "react";
import { deliveryLabel, deliveryStates } from "@/contract/receipt-verdict";
import { Button } from "@/web/components/ui/button";
import { FormField } from "@/web/components/ui/form-field";
import { Input } from "@/web/components/ui/input";
import { NativeCheckbox } from "@/web/components/ui/native-checkbox";
import { NativeSelect } from "@/web/components/ui/native-select";
import type { SharesSearch } from "../shares-search";

type Filters = Omit<SharesSearch, "outbox">;

/** The contract's list filters, kept in the address (so a filtered view can be shared). */
export function SharesFilters({
  filters,
  onChange,
}: {
  filters: Filters;
  onChange(filters: Filters): void;
}) {
  const neverOpenedId = useId();
  const [recipient, setRecipient] = useState(filters.recipient ?? "");
  const set = (change: Partial<Filters>) => onChange({ ...filters, ...change });
  return (
    <search
      aria-label="Filter the shares"
      className="flex flex-wrap items-end gap-3 border-b border-border px-4 py-3"
    >
      <FormField label="Status" className="flex-[1_1_8rem] sm:flex-none">
        {(control) => (
          <NativeSelect
            {...control}
            value={filters.status ?? ""}
            onChange={(e) => set({ status: (e.target.value || undefined) as Filters["status"] })}
          >
            <option value="">All</option>
            <option value="active">Active</option>
            <option value="expired">Expired</option>
            <option value="revoked">Revoked</option>
            <option value="exhausted">Limit reached</option>
          </NativeSelect>
        )}
      </FormField>
      <FormField label="Delivery" className="flex-[1_1_8rem] sm:flex-none">
        {(control) => (
          <NativeSelect
            {...control}
            value={filters.verdict ?? ""}
            onChange={(e) => set({ verdict: (e.target.value || undefined) as Filters["verdict"] })}
          >
            <option value="">Any</option>
            {deliveryStates.map((v) => (
              <option key={v} value={v}>
                {deliveryLabel[v]}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>
      <FormField label="Expiring within" className="flex-[1_1_8rem] sm:flex-none">
        {(control) => (
          <NativeSelect
            {...control}
            value={filters.expiringWithinDays ?? ""}
            onChange={(e) =>
              set({ expiringWithinDays: e.target.value ? Number(e.target.value) : undefined })
            }
          >
            <option value="">Any time</option>
            <option value="1">1 day</option>
            <option value="3">3 days</option>
            <option value="7">7 days</option>
            <option value="30">30 days</option>
          </NativeSelect>
        )}
      </FormField>
      <form
        className="flex flex-[1_1_14rem] items-end gap-2 sm:flex-none"
        onSubmit={(e) => {
          e.preventDefault();
          set({ recipient: recipient.trim().toLowerCase() || undefined });
        }}
      >
        <FormField label="Recipient" className="flex-1">
          {(control) => (
            <Input
              {...control}
              type="search"
              inputMode="email"
              placeholder="name@example.com"
              value={recipient}
              onChange={(e) => setRecipient(e.target.value)}
            />
          )}
        </FormField>
        <Button type="submit" variant="outline">
          Filter
        </Button>
      </form>
      <div className="flex h-9 items-center gap-2 text-sm">
        <NativeCheckbox
          id={neverOpenedId}
          checked={filters.neverOpened ?? false}
          onChange={(e) => set({ neverOpened: e.target.checked || undefined })}
        />
        <label htmlFor={neverOpenedId}>Never opened</label>
      </div>
    </search>
  );
}
