import { useId } from "react";
import { NativeCheckbox } from "@/web/components/ui/native-checkbox";
import { groupEventTypes } from "@/web/lib/event-types";

const ALL = "*";

/**
 * The catalogue the service lists, grouped by area (types this build does not know yet under
 * their prefix, so a newer service is still fully subscribable), each area with a checkbox for
 * all of its types, plus `*`.
 */
export function EventPicker({
  available,
  value,
  onChange,
  error,
}: {
  available: string[];
  value: string[];
  onChange(events: string[]): void;
  error?: string;
}) {
  const groups = groupEventTypes(available);
  const idPrefix = useId();
  const errorId = `${idPrefix}-error`;
  const all = value.includes(ALL);
  const set = (types: string[], on: boolean) => {
    const rest = value.filter((v) => !types.includes(v));
    onChange(on ? [...rest, ...types] : rest);
  };

  return (
    <fieldset
      className="grid gap-3 rounded-md border border-border p-3"
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
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
      <div className="grid gap-3 sm:grid-cols-2">
        {groups.map(({ area, types }, i) => {
          const chosen = types.filter((t) => value.includes(t.type)).length;
          const areaId = `${idPrefix}-area-${i}`;
          return (
            <fieldset key={area} className="grid content-start gap-1.5" disabled={all}>
              <legend className="flex items-center gap-2">
                <NativeCheckbox
                  id={areaId}
                  checked={
                    all || chosen === types.length ? true : chosen === 0 ? false : "indeterminate"
                  }
                  onChange={(e) =>
                    set(
                      types.map((t) => t.type),
                      e.target.checked,
                    )
                  }
                />
                <label
                  htmlFor={areaId}
                  className="text-xs font-medium uppercase tracking-wide text-muted-foreground"
                >
                  {area}
                </label>
              </legend>
              {types.map(({ type, description }) => (
                <div key={type} className="flex items-start gap-2 pl-6 text-sm">
                  <NativeCheckbox
                    id={`${idPrefix}-${type}`}
                    className="mt-0.5"
                    checked={all || value.includes(type)}
                    onChange={(e) => set([type], e.target.checked)}
                  />
                  <label
                    htmlFor={`${idPrefix}-${type}`}
                    className="min-w-0 [overflow-wrap:anywhere]"
                  >
                    <span className="font-mono">{type}</span>
                    {description && (
                      <span className="block text-muted-foreground">{description}</span>
                    )}
                  </label>
                </div>
              ))}
            </fieldset>
          );
        })}
      </div>
      {error && (
        <p id={errorId} role="alert" className="text-sm text-destructive-text">
          {error}
        </p>
      )}
    </fieldset>
  );
}
