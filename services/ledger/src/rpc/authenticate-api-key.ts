// AuthenticateApiKey: the gateway's per-request key check. UNAUTHENTICATED (INVALID_API_KEY) when the
// key is malformed, unknown or revoked.
import type { UnaryHandler } from "@agentic/platform";
import type { AuthenticateApiKeyRequest, AuthenticateApiKeyResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";

export function authenticateApiKey(ledger: Ledger): UnaryHandler<AuthenticateApiKeyRequest, AuthenticateApiKeyResponse> {
  return async (req) => ledger.authenticateApiKey(req.apiKey);
}
