// RouterService/RouteTask: intent routing. Reads the task, takes the intent index of the current
// catalog version (built once per version from the catalog cache), ranks the capabilities in process
// and, when the request names a caller, says whether the top match's recommended route can run now
// for them (the wallet read as Recommend reads it, cached alike; the same pure recommendation, nothing stored). Never moves credits.
import { callDeadlineMs, notFound, type Logger, type UnaryHandler } from "@agentic/platform";
import type { RouteTaskRequest, RouteTaskResponse } from "@agentic/proto/router/v1";
import type { CatalogCache } from "@agentic/clients";
import type { IntentAnswer } from "@agentic/intent";
import {
  choosePreferences,
  recommend,
  type Goal,
  type RouteHealthBook,
  type ScoringSettings,
  type WalletReader,
} from "@agentic/ranking/domain";
import { parseTaskInput } from "../domain/task-input";
import { toRouteTaskResponse } from "../domain/task-routing";
import type { IntentIndexHolder } from "../intent/intent-index-holder";

export interface RouteTaskDeps {
  intent: Pick<IntentIndexHolder, "get">;
  catalog: Pick<CatalogCache, "capability">;
  wallet: WalletReader;
  routeHealth: RouteHealthBook;
  defaultPreferences: readonly Goal[];
  scoring: ScoringSettings;
  dependencyDeadlineMs: number;
  logger: Logger;
}

export function routeTaskHandler(deps: RouteTaskDeps): UnaryHandler<RouteTaskRequest, RouteTaskResponse> {
  return async (req, ctx) => {
    const input = parseTaskInput(req);
    const callOpts = () => ({ deadlineMs: callDeadlineMs(deps.dependencyDeadlineMs, ctx.remainingMs()) });
    const { index, domainKeys } = await deps.intent.get(callOpts());
    if (req.domainKey !== undefined && !domainKeys.has(req.domainKey)) {
      throw notFound("DOMAIN_NOT_FOUND", `no domain "${req.domainKey}"`, "List the domains with GET /domains.");
    }
    const answer = index.query({
      task: input.task,
      limit: input.limit,
      ...(req.domainKey !== undefined ? { domainKey: req.domainKey } : {}),
    });
    const response = toRouteTaskResponse(answer);
    const top = response.matches[0];
    if (req.userId && top && !answer.abstained) top.canExecuteNow = await canRunNow(answer, req, deps, callOpts());
    return response;
  };
}

/** Whether the top match's recommended route can run now for the caller, with the task's constraints as the recommend body. */
async function canRunNow(answer: IntentAnswer, req: RouteTaskRequest, deps: RouteTaskDeps, opts: { deadlineMs: number }): Promise<boolean> {
  const top = answer.matches[0]!;
  const c = answer.constraints;
  const [entry, wallet] = await Promise.all([
    deps.catalog.capability(top.domainKey, top.capabilityId, opts),
    deps.wallet.read({ userId: req.userId!, keyId: req.keyId }, opts),
  ]);
  const fields: Record<string, unknown> = { ...c.fields, ...(c.provider !== undefined ? { provider: c.provider } : {}) };
  const recommendation = recommend({
    capability: entry.capability,
    routes: entry.routes,
    catalogVersion: entry.catalogVersion,
    preferences: choosePreferences(
      c.optimizationPreferences.length > 0 ? c.optimizationPreferences : undefined,
      undefined,
      deps.defaultPreferences,
    ),
    fields,
    balanceCredits: wallet.balanceCredits,
    spendLimits: wallet.spendLimits,
    maxPriceCredits: c.maxPriceCredits,
    health: deps.routeHealth.snapshot(
      entry.routes.map((r) => r.routeKey),
      Date.now(),
    ),
    settings: deps.scoring,
  });
  return recommendation.canExecuteNow;
}
