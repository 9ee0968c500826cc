// CreateApiKey: a new key for a user; the plaintext is in this response only.
import type { UnaryHandler } from "@agentic/platform";
import type { CreateApiKeyRequest, CreateApiKeyResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";
import { toApiKeyInfo } from "./convert";

export function createApiKey(ledger: Ledger): UnaryHandler<CreateApiKeyRequest, CreateApiKeyResponse> {
  return async (req) => {
    const { apiKey, record } = await ledger.createApiKey(req.userId, req.name, {
      agentName: req.agentName,
      agentNames: req.agentNames?.names ?? [],
    });
    return { apiKey, key: toApiKeyInfo(record) };
  };
}
