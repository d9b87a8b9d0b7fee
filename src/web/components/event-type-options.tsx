import { groupEventTypes } from "@/web/lib/event-types";

/** A select's options for event types, one `<optgroup>` per area (Files, Shares, …). */
export function EventTypeOptions({ types }: { types: readonly string[] }) {
  return groupEventTypes(types).map((group) => (
    <optgroup key={group.area} label={group.area}>
      {group.types.map(({ type }) => (
        <option key={type} value={type}>
          {type}
        </option>
      ))}
    </optgroup>
  ));
}
