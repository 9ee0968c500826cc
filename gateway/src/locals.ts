// What the gateway's middleware leaves on `res.locals` for later handlers.
import type { KeyLimits } from "./limits/key-limits";

/** Who a request acts for, set by the auth middleware. */
export interface Caller {
  userId: string;
  keyId: string;
  /** The key's own request limits from its ledger record (only the fields it sets); absent: the configured defaults. */
  limits?: Partial<KeyLimits>;
}

declare module "express-serve-static-core" {
  interface Locals {
    caller: Caller;
    /** Base path of the sub-router that served the request (see rememberBasePath). */
    basePath?: string;
  }
}
