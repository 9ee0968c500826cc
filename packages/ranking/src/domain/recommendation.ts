// Recommend, end to end and pure: scores every route of a capability for one request, assesses
// what blocks each, explains each, and picks the recommended, best executable and workflow routes.
import type { Capability, Route } from "@agentic/proto/catalog/v1";
import type { RecommendationCandidate, RecommendResponse, WorkflowRecommendation } from "@agentic/proto/router/v1";
import type { OwnedResourceRelationship } from "./acquisitions";
import { assessRoute, type CapabilityRef, type Feasibility } from "./feasibility";
import { goalWeights } from "./goals";
import { routesForModel } from "./models";
import type { ResolvedPreferences } from "./preferences";
import { candidateReasons, priceField } from "./reasons";
import type { SpendLimit } from "./spend-limits";
import { unavailableReasonCode } from "./unavailable-reason";
import { featureAsks as readFeatureAsks, stringField } from "./request-input";
import type { RouteHealth } from "./route-health";
import { quotaReason, quotaStanding, type QuotaUse } from "./vendor-quota";
import { compareScored, estimateRoute, goalScores, weightedScore, type ScoredRoute, type ScoringSettings } from "./scoring";
import {
  byoKeyWorkflow,
  compareWorkflows,
  ownedResourceWorkflow,
  pairOwnedResourceRoutes,
  type Acquisition,
  type WorkflowContext,
} from "./workflows";

export interface RecommendationInput {
  capability: Capability;
  /** Every route of the capability (at least one). */
  routes: readonly Route[];
  catalogVersion: string;
  /** The capability acquiring what this one's byo routes run on, when there is one in the catalog. */
  acquisition?: { relationship: OwnedResourceRelationship; capability: Capability; routes: readonly Route[] } | undefined;
  preferences: ResolvedPreferences;
  /** The request body as sent. */
  fields: Readonly<Record<string, unknown>>;
  /**
   * The caller's spendable balance, in credits; undefined when the wallet was not read (a
   * ranking-only request): CREDITS_REQUIRED is then never reported.
   */
  balanceCredits: number | undefined;
  /** The caller's spend policies, read with the wallet (none on a ranking-only request: the hold checks them). */
  spendLimits?: readonly SpendLimit[] | undefined;
  /** The most the caller will pay for one execution, in credits: dearer routes stay ranked but cannot run now. */
  maxPriceCredits?: number | undefined;
  /**
   * Only the ranking is wanted (the executor's request): the candidates in order with their blocking
   * requirements; no reasons, next actions or workflows are built.
   */
  rankingOnly?: boolean;
  /**
   * The caller reads only this many candidates (its candidate limit): those past it carry only what
   * running them needs (route, price, score, blocks), not reasons, next actions or features, so the
   * cost of a capability with hundreds of routes follows the candidates read, not every route.
   */
  explainTop?: number | undefined;
  /**
   * Live health as of now of the routes here and of the acquisition routes, read once for this
   * request (RouteHealthBook.snapshot); a route without traffic is absent.
   */
  health: ReadonlyMap<string, RouteHealth>;
  /** What is spent of the vendor quota of each route that has one (read once for this request); absent: unknown. */
  quotaUse?: ReadonlyMap<string, QuotaUse> | undefined;
  settings: ScoringSettings;
}

/**
 * Builds the full recommendation. Throws InputError when a resource field (e.g. inboxId) has the
 * wrong type, or the body names a model no route serves. The recommended route is the best-scored eligible one even when it cannot run now;
 * bestExecutable is the best one that can.
 */
export function recommend(input: RecommendationInput): RecommendResponse {
  const { capability } = input;
  if (input.routes.length === 0) throw new RangeError(`capability ${capability.capabilityKey} has no routes`);
  // A named model narrows the candidates to the routes serving it (scores are relative to those only).
  const routes = routesForModel(capability.capabilityKey, input.routes, input.fields);
  const capRef = refOf(capability);
  // A field set to true counts as a feature ask when some route of the capability lists that feature;
  // any other value under a feature's name is an execute field (e.g. an email's html body).
  const asks = readFeatureAsks(
    input.fields,
    routes.flatMap((r) => r.supportedFeatures),
  );
  const relationship = input.acquisition?.relationship;
  const resourcePresent = relationship ? stringField(input.fields, relationship.resourceField) !== undefined : false;

  const wctx: WorkflowContext = {
    capability: capRef,
    balanceCredits: input.balanceCredits,
    featureAsks: asks,
    health: input.health,
    resourcePresent,
  };
  const acquisition: Acquisition | undefined = input.acquisition && {
    relationship: input.acquisition.relationship,
    capability: refOf(input.acquisition.capability),
    routes: input.acquisition.routes,
  };
  const pairs = acquisition ? pairOwnedResourceRoutes(routes, acquisition, wctx) : new Map();
  // A named resource lives at the provider that acquired it: only that provider's routes can use it (as the executor enforces).
  const usableBy = acquisition ? [...new Set(acquisition.routes.map((r) => r.providerKey))] : [];
  const ignoresNamedResource = (route: Route) =>
    resourcePresent && relationship && !usableBy.includes(route.providerKey)
      ? { field: relationship.resourceField, label: relationship.resourceLabel, usableBy }
      : undefined;

  const quotas = new Map(
    [...(input.quotaUse ?? new Map<string, QuotaUse>())].map(([key, use]) => [
      key,
      { use, standing: quotaStanding(use, input.settings.quotaLowAt) },
    ]),
  );
  const feasibility = new Map<string, Feasibility>();
  for (const route of routes) {
    const pair = pairs.get(route.routeKey);
    feasibility.set(
      route.routeKey,
      assessRoute(route, {
        capability: capRef,
        balanceCredits: input.balanceCredits,
        spendLimits: input.spendLimits,
        featureAsks: asks,
        maxPriceCredits: input.maxPriceCredits,
        health: input.health.get(route.routeKey),
        quota: quotas.get(route.routeKey),
        ignoresNamedResource: ignoresNamedResource(route),
        ownedResource:
          pair && relationship && acquisition
            ? {
                field: relationship.resourceField,
                label: relationship.resourceLabel,
                present: resourcePresent,
                acquisition: acquisition.capability,
                acquisitionPriceCredits: pair.acquisitionRoute.startingCostCredits,
              }
            : undefined,
      }),
    );
  }

  const weights = goalWeights(input.preferences.goals, input.settings.weights);
  const estimates = routes.map((r) => ({
    price: r.startingCostCredits,
    estimate: estimateRoute(r, input.health.get(r.routeKey), input.settings),
  }));
  const goals = goalScores(estimates, input.settings);
  const scored: ScoredRoute[] = routes.map((route, i) => {
    const disqualified = feasibility.get(route.routeKey)!.disqualified;
    return {
      route,
      estimate: estimates[i]!.estimate,
      goals: goals[i]!,
      disqualified,
      demoted: (quotas.get(route.routeKey)?.standing ?? "ok") !== "ok",
      score: disqualified ? 0 : weightedScore(goals[i]!, weights),
    };
  });
  scored.sort(compareScored);

  const tracked = routes.some((r) => r.supportedFeatures.includes("tracking"));
  const explain = !input.rankingOnly;
  const reasonCtx = { prices: priceField(routes), goals: input.preferences.goals, weights, featureAsks: asks };
  const candidates: RecommendationCandidate[] = scored.map((s, i) => {
    const f = feasibility.get(s.route.routeKey)!;
    const read = input.explainTop === undefined || i < input.explainTop;
    const explained = explain && read;
    const candidate: RecommendationCandidate = {
      provider: s.route.providerKey,
      routeKey: s.route.routeKey,
      routeMode: s.route.routeMode,
      canExecuteNow: f.canExecuteNow,
      score: s.score,
      priceCredits: s.route.startingCostCredits,
      supportedFeatures: read ? [...s.route.supportedFeatures] : [],
      blockingRequirements: [...f.blockingRequirements],
      nextActions: explained ? [...f.nextActions] : [],
      reasons: explained ? candidateReasons(s, input.health.get(s.route.routeKey), reasonCtx) : [],
    };
    const quota = quotas.get(s.route.routeKey);
    if (explained && quota) candidate.reasons.splice(-1, 0, quotaReason(quota.use, quota.standing));
    if (tracked) candidate.trackingSupported = s.route.supportedFeatures.includes("tracking");
    if (s.route.settlementRail) candidate.settlementRail = s.route.settlementRail;
    const reasonCode = unavailableReasonCode(f.blockingRequirements, capRef);
    if (reasonCode) candidate.unavailableReasonCode = reasonCode;
    return candidate;
  });

  const workflows: WorkflowRecommendation[] = [];
  for (const s of explain ? scored : []) {
    if (s.route.routeMode !== "byo") continue;
    const pair = pairs.get(s.route.routeKey);
    workflows.push(
      pair && acquisition
        ? ownedResourceWorkflow(pair, acquisition, wctx)
        : byoKeyWorkflow(s.route, feasibility.get(s.route.routeKey)!, wctx),
    );
  }
  workflows.sort(compareWorkflows);

  const recommended = candidates[0]!;
  const bestExecutable = candidates.find((c) => c.canExecuteNow);
  const nextActions = explain ? [...recommended.nextActions] : [];
  const viaWorkflow = workflows.find((w) => w.executeRouteKey === recommended.routeKey && w.workflowType !== "bring_your_own_key");
  if (viaWorkflow && recommended.blockingRequirements.includes("BYO_CREDENTIALS_REQUIRED")) {
    nextActions.push(`Or follow the ${viaWorkflow.workflowType} workflow: ${viaWorkflow.summary}`);
  }
  if (explain && !recommended.canExecuteNow && bestExecutable) {
    nextActions.push(
      `Or execute now on ${bestExecutable.routeKey} (${bestExecutable.priceCredits} credits): set "provider": "${bestExecutable.provider}" in the execute body`,
    );
  }

  const response: RecommendResponse = {
    success: true,
    productKey: `${capability.domainKey}.${capability.capabilityId}`,
    preferenceSource: input.preferences.source,
    optimizationPreferences: [...input.preferences.goals],
    recommendedProvider: recommended.provider,
    recommendedRouteKey: recommended.routeKey,
    recommendedRouteMode: recommended.routeMode,
    canExecuteNow: recommended.canExecuteNow,
    blockingRequirements: [...recommended.blockingRequirements],
    nextActions,
    candidates,
    workflowRecommendations: workflows,
    catalogVersion: input.catalogVersion,
    // Set when the answer is stored (stored-recommendation.ts): the id names the stored copy.
    recommendationId: "",
    recommendationExpiresAt: "",
  };
  if (bestExecutable) {
    response.bestExecutableProvider = bestExecutable.provider;
    response.bestExecutableRouteKey = bestExecutable.routeKey;
    response.bestExecutableRouteMode = bestExecutable.routeMode;
  }
  if (workflows[0]) response.bestWorkflowRecommendation = workflows[0];
  return response;
}

function refOf(c: Capability): CapabilityRef {
  return {
    capabilityKey: c.capabilityKey,
    domainKey: c.domainKey,
    capabilityId: c.capabilityId,
    status: c.status,
    gateReason: c.gateReason,
  };
}
