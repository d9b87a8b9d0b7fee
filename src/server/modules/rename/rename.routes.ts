import { renameBatchBodySchema, renameBatchResultSchema } from "@/contract/operations";
import { apiRoute, json, jsonBody, workspaceParams } from "@/server/http/router";

export const renameBatchRoute = apiRoute({
  operationId: "renameFilesBatch",
  method: "post",
  path: "/workspaces/{workspaceId}/files/rename-batch",
  tags: ["Files"],
  scopes: ["files:write"],
  summary: "Rename many files and folders by a pattern",
  description:
    "Plans new names (find and replace, literal or RE2 regex, then numbering, then prefix and suffix; a file's extension stays out unless `includeExtension`) and, unless `dryRun`, applies them in one transaction, swaps and chains included. A selected frame of a numbered set brings the whole set unless `expandSequences` is false. Every step says whether its name is `unchanged` and its `conflict` (`exists`, `duplicate_in_plan`, `invalid_name`); an apply with conflicts renames nothing and names the first in `failed`. `planId` (extension) identifies a dry run's plan: an apply that sends it is refused with `validation_failed` code `plan_stale` when the plan would differ now. A pattern that is not valid RE2 (no backreferences or lookaround) is `validation_failed` on `pattern.find`. See docs/api-decisions.md, Batch rename.",
  request: { params: workspaceParams, body: jsonBody(renameBatchBodySchema) },
  responses: { 200: json(renameBatchResultSchema, "The plan, and what was applied") },
});
