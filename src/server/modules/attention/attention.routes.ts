import { attentionQuerySchema, attentionSchema } from "@/contract/attention";
import { attentionScopes } from "@/contract/attention-rules";
import { ifNoneMatchHeaders, pollableResponses } from "@/server/http/etag";
import { apiRoute, workspaceParams } from "@/server/http/router";

export const getAttentionRoute = apiRoute({
  operationId: "getAttention",
  method: "get",
  path: "/workspaces/{workspaceId}/attention",
  tags: ["Attention"],
  summary: "What needs a member: uploads to review, failed verifications, expiring shares, …",
  description:
    "Extension. Counts and the first `limit` entries of each kind, workspace-wide. A section appears only when the key holds one of the scopes that read it (each section says which); a key with none of them is refused. Made to be polled every few seconds: send the last `ETag` as `If-None-Match` and an unchanged answer is 304 with no body.",
  scopes: attentionScopes,
  extension: true,
  request: {
    params: workspaceParams,
    query: attentionQuerySchema,
    headers: ifNoneMatchHeaders,
  },
  responses: pollableResponses(attentionSchema, "The sections the key may read"),
});
