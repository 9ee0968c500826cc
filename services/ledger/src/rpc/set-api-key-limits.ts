// SetApiKeyLimits (admin): replaces a key's request limits, or clears them with empty limits;
// NOT_FOUND (API_KEY_NOT_FOUND) for an unknown key id, INVALID_ARGUMENT for a limit out of range.
import type { UnaryHandler } from "@agentic/platform";
import type { SetApiKeyLimitsRequest, SetApiKeyLimitsResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";
import { toApiKeyInfo } from "./convert";

export function setApiKeyLimits(ledger: Ledger): UnaryHandler<SetApiKeyLimitsRequest, SetApiKeyLimitsResponse> {
  return async (req) => ({ key: toApiKeyInfo(await ledger.setApiKeyLimits(req.keyId, req.limits)) });
}
