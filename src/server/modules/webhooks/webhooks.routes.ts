import { createRouter } from "../../http/router";

export const webhooksRouter = createRouter();
