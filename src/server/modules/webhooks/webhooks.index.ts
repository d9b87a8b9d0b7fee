import { createRouter } from "@/server/http/router";
import * as hooks from "./hooks.handlers";
import * as handlers from "./webhooks.handlers";
import * as routes from "./webhooks.routes";

// The one place a route meets its handler: the declarations import no handler, so the handlers
// may import the declarations' types without a circle.
export const webhooksRouter = createRouter()
  .openapi(routes.listWebhookEventsRoute, handlers.listWebhookEvents)
  .openapi(routes.createWebhookRoute, handlers.createWebhook)
  .openapi(routes.listWebhooksRoute, handlers.listWebhooks)
  .openapi(routes.getWebhookRoute, handlers.getWebhook)
  .openapi(routes.updateWebhookRoute, handlers.updateWebhook)
  .openapi(routes.deleteWebhookRoute, handlers.deleteWebhook)
  .openapi(routes.rotateSecretRoute, handlers.rotateSecret)
  .openapi(routes.testWebhookRoute, handlers.testWebhook)
  .openapi(routes.listDeliveriesRoute, handlers.listDeliveries)
  .openapi(routes.getDeliveryRoute, handlers.getDeliveryDetail)
  .openapi(routes.retryDeliveryRoute, handlers.retryDelivery)
  .openapi(routes.createHookRoute, hooks.createHook)
  .openapi(routes.listHooksRoute, hooks.listHooks)
  .openapi(routes.updateHookRoute, hooks.updateHook)
  .openapi(routes.deleteHookRoute, hooks.deleteHook)
  .openapi(routes.hookSamplesRoute, hooks.hookSamples);
