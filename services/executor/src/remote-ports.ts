// The router and ledger clients as the domain's ports: a gRPC error they throw comes back as the
// AppError it carries (kind, code, hint, details), so the domain checks kinds and codes, never statuses.
import { fromServiceError, isUnansweredCall, toServiceError } from "@agentic/platform";
import type { LedgerPort, RouterPort } from "./domain/ports";

async function appErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    // A dependency that did not answer (grpc-js's own error: refused, dropped, reset, too late) is this service being
    // unavailable, as the gRPC seam says of it: 503 at the edge, never a 504 that reads as our timeout.
    throw fromServiceError(isUnansweredCall(err) ? toServiceError(err) : err);
  }
}

export function routerPort(client: RouterPort): RouterPort {
  return {
    recommend: (req, opts) => appErrors(() => client.recommend(req, opts)),
    getRecommendation: (req, opts) => appErrors(() => client.getRecommendation(req, opts)),
  };
}

export function ledgerPort(client: LedgerPort): LedgerPort {
  const { getOwnedResource } = client;
  return {
    holdCredits: (req, opts) => appErrors(() => client.holdCredits(req, opts)),
    getHold: (req, opts) => appErrors(() => client.getHold(req, opts)),
    claimIdempotencyKey: (req, opts) => appErrors(() => client.claimIdempotencyKey(req, opts)),
    claimIdempotencyKeyAndHoldCredits: (req, opts) => appErrors(() => client.claimIdempotencyKeyAndHoldCredits(req, opts)),
    completeExecution: (req, opts) => appErrors(() => client.completeExecution(req, opts)),
    createQuoteHold: (req, opts) => appErrors(() => client.createQuoteHold(req, opts)),
    getQuoteHold: (req, opts) => appErrors(() => client.getQuoteHold(req, opts)),
    ...(getOwnedResource ? { getOwnedResource: (req, opts) => appErrors(() => getOwnedResource.call(client, req, opts)) } : {}),
  };
}
