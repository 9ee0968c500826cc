// LedgerErrors are AppErrors: the platform's gRPC seam (toServiceError) gives them their status.
// This wrapper only keeps the handlers' shape until they are registered without it.
import type { UnaryHandler } from "@agentic/platform";

export function withLedgerErrors<Req, Res>(handler: UnaryHandler<Req, Res>): UnaryHandler<Req, Res> {
  return handler;
}
