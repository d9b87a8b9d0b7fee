import { createRouter } from "@/server/http/router";
import * as handlers from "./settings.handlers";
import * as routes from "./settings.routes";

// The one place a route meets its handler (as webhooks.index.ts).
export const settingsRouter = createRouter()
  .openapi(routes.getSettingsRoute, handlers.getSettings)
  .openapi(routes.updateSettingsRoute, handlers.updateSettings)
  .openapi(routes.getLogoRoute, handlers.getLogo)
  .openapi(routes.putLogoRoute, handlers.putLogo)
  .openapi(routes.deleteLogoRoute, handlers.deleteLogo);
