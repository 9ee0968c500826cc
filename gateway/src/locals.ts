// What the gateway's middleware leaves on `res.locals` for later handlers.

/** Who a request acts for, set by the auth middleware. */
export interface Caller {
  userId: string;
  keyId: string;
}

declare module "express-serve-static-core" {
  interface Locals {
    caller: Caller;
    /** Base path of the sub-router that served the request (see rememberBasePath). */
    basePath?: string;
  }
}
