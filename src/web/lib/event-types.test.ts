import { describe, expect, it } from "vitest";
import { eventCatalogue, streamEventTypes } from "@/contract/event-catalogue";
import { groupEventTypes } from "./event-types";

const areas = (types: readonly string[]) => groupEventTypes(types).map((g) => g.area);

describe("groupEventTypes", () => {
  it("groups every type of the stream by its catalogue area, each area once", () => {
    const groups = groupEventTypes(streamEventTypes);
    expect(groups.flatMap((g) => g.types.map((t) => t.type)).sort()).toEqual(
      [...streamEventTypes].sort(),
    );
    expect(new Set(areas(streamEventTypes)).size).toBe(groups.length);
    const catalogueAreas = [...new Set(eventCatalogue.map((e) => e.area))];
    expect(areas(streamEventTypes)).toEqual([...catalogueAreas, "Webhooks"]);
  });

  it("keeps the catalogue's descriptions", () => {
    const [first] = eventCatalogue;
    const group = groupEventTypes([first.type])[0];
    expect(group).toEqual({
      area: first.area,
      types: [{ type: first.type, description: first.description }],
    });
  });

  it("puts types this build does not know under their prefix, after the known areas", () => {
    expect(areas(["job.completed", "member.joined", "job.failed", "zap"])).toEqual([
      "Members",
      "job.*",
      "zap.*",
    ]);
    expect(groupEventTypes(["job.completed", "job.failed"])[0]?.types).toHaveLength(2);
  });
});
