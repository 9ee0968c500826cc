// @agentic/clients: one promise-returning client per service.
export * from "./catalog";
export * from "./executor";
export * from "./ledger";
export * from "./router";
export * from "./catalog-cache";
export * from "./catalog-pages";
