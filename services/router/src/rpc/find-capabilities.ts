// RouterService/FindCapabilities: the catalog's search box (GET /capabilities?q=, GET /routes?q=).
// Every capability the words reach, of any status, best first, from the intent index RouteTask
// reads (one index per catalog version, so the search box keeps no copy of its own). Never moves credits.
import { callDeadlineMs, type UnaryHandler } from "@agentic/platform";
import type { FindCapabilitiesRequest, FindCapabilitiesResponse } from "@agentic/proto/router/v1";
import { parseFindWords } from "../domain/find-input";
import type { IntentIndexHolder } from "../intent/intent-index-holder";

export interface FindCapabilitiesDeps {
  intent: Pick<IntentIndexHolder, "get">;
  dependencyDeadlineMs: number;
}

export function findCapabilitiesHandler(deps: FindCapabilitiesDeps): UnaryHandler<FindCapabilitiesRequest, FindCapabilitiesResponse> {
  return async (req, ctx) => {
    const words = parseFindWords(req);
    const { index } = await deps.intent.get({ deadlineMs: callDeadlineMs(deps.dependencyDeadlineMs, ctx.remainingMs()) });
    return { capabilityKeys: index.find(words), catalogVersion: index.catalogVersion };
  };
}
