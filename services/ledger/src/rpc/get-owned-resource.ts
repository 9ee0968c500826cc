// GetOwnedResource: one vendor resource of a user (an inbox bought through us). NOT_FOUND
// (RESOURCE_NOT_FOUND) for an unknown resource and for another user's alike.
import type { UnaryHandler } from "@agentic/platform";
import type { GetOwnedResourceRequest, GetOwnedResourceResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";
import { toOwnedResourceMessage } from "./convert";

export function getOwnedResource(ledger: Ledger): UnaryHandler<GetOwnedResourceRequest, GetOwnedResourceResponse> {
  return async (req) => ({
    resource: toOwnedResourceMessage(await ledger.getOwnedResource(req.userId, req.kind, req.resourceId)),
  });
}
