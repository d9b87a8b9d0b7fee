import { createRouter } from "@/server/http/router";
import * as handlers from "./attention.handlers";
import * as routes from "./attention.routes";

// The one place a route meets its handler (as in every module).
export const attentionRouter = createRouter().openapi(
  routes.getAttentionRoute,
  handlers.getAttention,
);
