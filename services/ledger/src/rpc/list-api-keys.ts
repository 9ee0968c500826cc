// ListApiKeys: key metadata (prefix, owner, dates), of one user or of all.
import type { UnaryHandler } from "@agentic/platform";
import type { ListApiKeysRequest, ListApiKeysResponse } from "@agentic/proto/ledger/v1";
import type { Ledger } from "../domain/ledger";
import { toApiKeyInfo } from "./convert";

export function listApiKeys(ledger: Ledger): UnaryHandler<ListApiKeysRequest, ListApiKeysResponse> {
  return async (req) => ({ keys: (await ledger.listApiKeys(req.userId)).map(toApiKeyInfo) });
}
