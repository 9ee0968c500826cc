// RevokeApiKey: idempotent; NOT_FOUND (API_KEY_NOT_FOUND) for an unknown key id.
import type { UnaryHandler } from "@agentic/platform";
import type { RevokeApiKeyRequest, RevokeApiKeyResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";
import { toApiKeyInfo } from "./convert";

export function revokeApiKey(ledger: Ledger): UnaryHandler<RevokeApiKeyRequest, RevokeApiKeyResponse> {
  return async (req) => ({ key: toApiKeyInfo(await ledger.revokeApiKey(req.keyId)) });
}
