import { createRouter } from "../../http/router";

export const filesRouter = createRouter();
