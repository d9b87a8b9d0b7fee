import { describe, expect, it } from "vitest";
import { shownPath } from "./upload-paths";

const upload = { folderPath: "Approved/2026-06-01 0930 Ana k3x9p2" };

describe("upload file paths", () => {
  it("lists a file by its place inside its upload's folder", () => {
    expect(shownPath(upload, "Approved/2026-06-01 0930 Ana k3x9p2/shots/a.png")).toBe(
      "shots/a.png",
    );
    expect(shownPath(upload, "Approved/2026-06-01 0930 Ana k3x9p2x/a.png")).toBe(
      "Approved/2026-06-01 0930 Ana k3x9p2x/a.png",
    );
  });
});
