import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CreateOperationBody } from "@/contract/operations";
import { OPERATION_ITEMS_MAX } from "@/contract/rules";
import { thrownRefusal } from "@/server/testing/expect-body";
import { writeFile } from "@/server/testing/files-client";
import { createTestApp, type TestApp } from "@/server/testing/test-app";
import { startOperation } from "./operations.service";

let t: TestApp;

beforeEach(async () => {
  t = await createTestApp();
  await writeFile(t, "In/a.txt");
  await writeFile(t, "Café/b.txt");
});
afterEach(() => t.close());

const refusal = (input: CreateOperationBody) =>
  thrownRefusal(() => startOperation(t.deps, t.workspaceId, input));

describe("startOperation, the entry other modules start a move or copy through", () => {
  it("stores the job with the defaults the schema fills, paths in NFC", () => {
    const job = startOperation(t.deps, t.workspaceId, {
      kind: "move",
      paths: ["In/a.txt"],
      destination: "Cafe\u0301",
      onConflict: "keepBoth",
    });
    expect(job).toMatchObject({ kind: "move", destination: "Café", overwrite: false });
  });

  it("bounds the paths as the schema does", () => {
    expect(refusal({ kind: "move", paths: [], destination: "" }).issues[0]).toMatchObject({
      field: "paths",
      code: "too_small",
    });
    const many = Array.from({ length: OPERATION_ITEMS_MAX + 1 }, (_, i) => `In/${i}`);
    expect(refusal({ kind: "copy", paths: many, destination: "" }).issues[0]).toMatchObject({
      field: "paths",
      code: "too_big",
    });
    expect(refusal({ kind: "copy", paths: [""], destination: "" }).issues[0]!.field).toBe(
      "paths.0",
    );
  });

  it("holds every path to the path rules: path_rejected, no job", () => {
    expect(refusal({ kind: "move", paths: ["In/../a.txt"], destination: "" })).toEqual({
      code: "path_rejected",
      issues: [expect.objectContaining({ field: "paths.0" })],
    });
    expect(refusal({ kind: "move", paths: ["In/a.txt"], destination: "/Out" })).toEqual({
      code: "path_rejected",
      issues: [expect.objectContaining({ field: "destination" })],
    });
    const count = t.deps.db.prepare("SELECT count(*) AS n FROM file_operations").get() as {
      n: number;
    };
    expect(count.n).toBe(0);
  });
});
