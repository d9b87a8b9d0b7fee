import { useId } from "react";
import { eventCatalogue } from "@/contract/rules";
import { NativeCheckbox } from "@/web/components/ui/native-checkbox";

const ALL = "*";

/**
 * The catalogue grouped by area, plus `*`. Types the service lists that this build does not
 * know yet go under "Other", so a newer service is still fully subscribable.
 */
export function EventPicker({
  available,
  value,
  onChange,
  invalid,
  describedBy,
}: {
  available: string[];
  value: string[];
  onChange(events: string[]): void;
  invalid: boolean;
  describedBy?: string;
}) {
  const known = new Map<string, { area: string; description: string }>(
    eventCatalogue.map((e) => [e.type, e]),
  );
  const groups = new Map<string, { type: string; description: string }[]>();
  for (const type of available) {
    const entry = known.get(type);
    const area = entry?.area ?? "Other";
    groups.set(area, [
      ...(groups.get(area) ?? []),
      { type, description: entry?.description ?? "" },
    ]);
  }
  const idPrefix = useId();
  const all = value.includes(ALL);
  const toggle = (type: string, on: boolean) =>
    onChange(on ? [...value.filter((v) => v !== type), type] : value.filter((v) => v !== type));

  return (
    <fieldset
      className="grid gap-3 rounded-md border border-border p-3"
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
    >
      <legend className="px-1 text-sm font-medium">Events</legend>
      <div className="flex items-start gap-2 text-sm">
        <NativeCheckbox
          id={`${idPrefix}-all`}
          className="mt-0.5"
          checked={all}
          onChange={(e) => onChange(e.target.checked ? [ALL] : [])}
        />
        <label htmlFor={`${idPrefix}-all`}>
          <span className="font-medium">All events (*)</span>
          <span className="block text-muted-foreground">Including types added later</span>
        </label>
      </div>
      {[...groups].map(([area, types]) => (
        <fieldset key={area} className="grid gap-1.5" disabled={all}>
          <legend className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
            {area}
          </legend>
          {types.map(({ type, description }) => (
            <div key={type} className="flex items-start gap-2 text-sm">
              <NativeCheckbox
                id={`${idPrefix}-${type}`}
                className="mt-0.5"
                checked={all || value.includes(type)}
                onChange={(e) => toggle(type, e.target.checked)}
              />
              <label htmlFor={`${idPrefix}-${type}`}>
                <span className="font-mono">{type}</span>
                {description && <span className="block text-muted-foreground">{description}</span>}
              </label>
            </div>
          ))}
        </fieldset>
      ))}
    </fieldset>
  );
}
