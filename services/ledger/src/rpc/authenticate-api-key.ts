// AuthenticateApiKey: the gateway's per-request key check, with the agents the key may act as.
// UNAUTHENTICATED (INVALID_API_KEY) when the key is malformed, unknown or revoked.
import type { UnaryHandler } from "@agentic/platform";
import type { AuthenticateApiKeyRequest, AuthenticateApiKeyResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";

export function authenticateApiKey(ledger: Ledger): UnaryHandler<AuthenticateApiKeyRequest, AuthenticateApiKeyResponse> {
  return async (req) => {
    const { agentNames, ...rest } = await ledger.authenticateApiKey(req.apiKey);
    return { ...rest, ...(agentNames ? { agentNames: { names: agentNames } } : {}) };
  };
}
