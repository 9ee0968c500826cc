// What the gateway's middleware leaves on `res.locals` for later handlers.
import type { LimitedCaller } from "./limits/key-limits";

/** Who a request acts for, set by the auth middleware. */
export interface Caller extends LimitedCaller {
  userId: string;
  /** The agent the key was issued for (normalized): every request of the key is this agent's. */
  agentName?: string;
  /** The agents (normalized) a request of the key must name one of in Agent-Name. */
  agentNames?: string[];
}

declare module "express-serve-static-core" {
  interface Locals {
    caller: Caller;
    /** The SHA-256 (hex) of the request's API key, once the auth middleware has accepted it. */
    apiKeyHash?: string;
    /** Base path of the sub-router that served the request (see rememberBasePath). */
    basePath?: string;
    /** The public code of the ErrorResponse sent (set by sendErrorResponse), for the histogram's error_type. */
    errorCode?: string;
  }
}
