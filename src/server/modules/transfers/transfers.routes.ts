import { createRouter } from "@/server/http/router";

export const transfersRouter = createRouter();
