// Which routes an execution may try, in order: the pinned route (routeKey), the best route of a
// pinned provider, or the router's best executable route, followed by the next executable ones when
// fallback is allowed. Pure: the caller supplies the router's ranking and what this executor can run.
import type { Capability, Route } from "@agentic/proto/catalog/v1";
import type { NotTriedRoute } from "@agentic/proto/executor/v1";
import type { RecommendationCandidate } from "@agentic/proto/router/v1";
import { capabilityGated, invalidInput, modelNotServed, priceAboveMax, routeUnavailable, unknownProvider, unknownRoute } from "./errors";
import { routesByModel, servedModels, servesModel } from "./pricing";
import { notTried, routerReason } from "./route-decision";

/** Whether this executor can run a route now, as far as the catalog and its own configuration tell. */
export type RouteReadiness =
  | { ready: true }
  /** Not executable by the catalog's readiness of the route (`blocking`: its blockedBy, e.g. ROUTE_PENDING). */
  | { ready: false; kind: "gated"; blocking: string; reason: string }
  /** Live in the catalog, but this deployment cannot run it (no rail or adapter configured). */
  | { ready: false; kind: "unavailable"; reason: string };

export interface RoutingControls {
  provider?: string;
  routeKey?: string;
  allowFallback?: boolean;
}

export interface PlanInput {
  capability: Capability;
  routes: readonly Route[];
  controls: RoutingControls;
  readiness: (route: Route) => RouteReadiness;
  /** The router's candidates, best first; undefined when no ranking was asked for or the router was unreachable. */
  ranking?: readonly RecommendationCandidate[];
  /** `GET .../contract` path of the capability, for hints. */
  contractPath: string;
}

export interface RoutePlan {
  /** Routes to try in order; the first is the chosen one, the rest are fallbacks (empty when not allowed). */
  routes: Route[];
  allowFallback: boolean;
  /** Every other route of `routes`, with why it is not planned. */
  notTried: NotTriedRoute[];
}

/**
 * Router blocks the executor decides itself: credits (the hold is the authoritative check), the
 * caller's maxPriceCredits (checked against this executor's own quote of the input, which may differ
 * from the router's starting price on per-unit and per-token routes) and the vendor quota (taken per
 * attempt; the router ranks such a route last, and the executor answers 429 when nothing else can run).
 */
const SOFT_BLOCKS = new Set(["CREDITS_REQUIRED", "OVER_MAX_PRICE", "VENDOR_QUOTA_EXHAUSTED"]);

/** CAPABILITY_GATED for a capability that is not live (recommend_only, planned, pending); undefined when it is. */
export function capabilityRefusal(capability: Capability): Error | undefined {
  if (capability.status === "live") return undefined;
  return capabilityGated(
    `${capability.capabilityKey} is ${capability.status.replace("_", "-")}: it cannot be executed yet${capability.gateReason ? ` (${capability.gateReason})` : ""}. Nothing was charged.`,
    ["CAPABILITY_GATED"],
    `Call recommend to compare its routes; read its status in GET /domains/${capability.domainKey}/capabilities/${capability.capabilityId} for changes.`,
  );
}

/**
 * The routes that serve the input's model: a request naming a model never reaches a route that does
 * not serve it (the vendor would refuse it, or bill us for a model we never priced). Capabilities whose
 * routes list no models keep every route. A pin that serves another model, or a model no route serves,
 * is a 400 naming the models that are served; an unknown pin is left to planRoutes (UNKNOWN_*).
 */
export function routesForModel(
  capability: Capability,
  routes: readonly Route[],
  model: string | undefined,
  controls: RoutingControls,
): Route[] {
  if (model === undefined || !routesByModel(routes)) return [...routes];
  const pinned =
    controls.routeKey !== undefined
      ? routes.filter((r) => r.routeKey === controls.routeKey)
      : controls.provider !== undefined
        ? routes.filter((r) => r.providerKey === controls.provider)
        : [];
  if (pinned.length > 0 && !pinned.some((r) => servesModel(r, model))) {
    const what = controls.routeKey !== undefined ? `route ${controls.routeKey}` : `provider ${controls.provider}`;
    throw modelNotServed(`${what} does not serve "${model}"`, servedModels(pinned), capability);
  }
  const serving = routes.filter((r) => servesModel(r, model));
  if (serving.length === 0)
    throw modelNotServed(`no route of ${capability.capabilityKey} serves "${model}"`, servedModels(routes), capability);
  return serving;
}

/** True when the plan needs the router's ranking: no pin, a provider with several routes, or fallback. */
export function needsRanking(routes: readonly Route[], controls: RoutingControls): boolean {
  if (controls.routeKey === undefined && controls.provider === undefined) return true;
  if (defaultAllowFallback(controls)) return true;
  return controls.routeKey === undefined && routes.filter((r) => r.providerKey === controls.provider).length > 1;
}

/** allowFallback as sent, else true without a pin and false with one. */
export function defaultAllowFallback(controls: RoutingControls): boolean {
  return controls.allowFallback ?? (controls.routeKey === undefined && controls.provider === undefined);
}

/** What the router's ranking says keeps `route` from running for this request, but for the blocks the executor decides itself. */
function routerBlocks(route: Route, ranking: readonly RecommendationCandidate[] | undefined): string[] {
  const candidate = ranking?.find((c) => c.routeKey === route.routeKey);
  return (candidate?.blockingRequirements ?? []).filter((b) => !SOFT_BLOCKS.has(b));
}

/** The router's block of a candidate above the maxPriceCredits it ranked with. */
const OVER_MAX_PRICE = "OVER_MAX_PRICE";

/**
 * A stored recommendation made with a maxPriceCredits keeps its dearer routes out, as it ranked them
 * (the router blocked them OVER_MAX_PRICE): the routes left, and the notTried of those kept out.
 * PRICE_ABOVE_MAX when only the price keeps every route that could run now out (not that the others
 * are gated); a route the router blocks for this request (an owned-inbox route the body names no inbox
 * for) could not run either.
 */
export function belowStoredMaxPrice(
  capabilityKey: string,
  routes: readonly Route[],
  ranking: readonly RecommendationCandidate[],
  readiness: (route: Route) => RouteReadiness,
): { routes: Route[]; notTried: NotTriedRoute[] } {
  const above = new Set(ranking.filter((c) => c.blockingRequirements.includes(OVER_MAX_PRICE)).map((c) => c.routeKey));
  const below = routes.filter((r) => !above.has(r.routeKey));
  const readyAbove = new Set(routes.filter((r) => above.has(r.routeKey) && readiness(r).ready).map((r) => r.routeKey));
  if (readyAbove.size > 0 && !below.some((r) => readiness(r).ready && routerBlocks(r, ranking).length === 0)) {
    const cheapest = ranking.filter((c) => readyAbove.has(c.routeKey)).sort((a, b) => a.priceCredits - b.priceCredits)[0]!;
    throw priceAboveMax(capabilityKey, undefined, { routeKey: cheapest.routeKey, credits: Math.ceil(cheapest.priceCredits) });
  }
  return {
    routes: below,
    notTried: routes
      .filter((r) => above.has(r.routeKey))
      .map((r) => notTried(r, "over_max_price", "above the maxPriceCredits the recommendation was made with")),
  };
}

/**
 * Plans the attempts of a live capability (the caller checks capabilityRefusal first). Throws
 * UNKNOWN_ROUTE / UNKNOWN_PROVIDER for a pin that names nothing of this capability, CAPABILITY_GATED
 * when the pinned route (or every route) may not run, and ROUTE_UNAVAILABLE when nothing this
 * executor can run is left.
 */
export function planRoutes(input: PlanInput): RoutePlan {
  const { capability, routes, controls } = input;
  const ordered = rankedOrder(routes, input.ranking);
  const routerBlocked = (route: Route) => routerBlocks(route, input.ranking);
  const isReady = (route: Route) => input.readiness(route).ready;
  const allowFallback = defaultAllowFallback(controls);

  let first: Route;
  if (controls.routeKey !== undefined) {
    const route = routes.find((r) => r.routeKey === controls.routeKey);
    if (!route)
      throw unknownRoute(
        controls.routeKey,
        capability.capabilityKey,
        routes.map((r) => r.routeKey),
      );
    if (controls.provider !== undefined && controls.provider !== route.providerKey) {
      throw invalidInput(
        "provider",
        `route ${route.routeKey} belongs to provider "${route.providerKey}", not "${controls.provider}"`,
        input.contractPath,
      );
    }
    const readiness = input.readiness(route);
    if (!readiness.ready) throw refusal(route, readiness);
    first = route;
  } else if (controls.provider !== undefined) {
    const own = ordered.filter((r) => r.providerKey === controls.provider);
    if (own.length === 0)
      throw unknownProvider(controls.provider, capability.capabilityKey, [...new Set(routes.map((r) => r.providerKey))]);
    const best = own.find(isReady);
    if (!best) {
      const top = own[0] as Route;
      throw refusal(top, input.readiness(top) as Exclude<RouteReadiness, { ready: true }>);
    }
    first = best;
  } else {
    const executable = ordered.filter((r) => isReady(r) && routerBlocked(r).length === 0);
    if (executable.length === 0) throw nothingExecutable(capability, ordered, input.readiness, routerBlocked);
    first = executable[0] as Route;
  }

  const fallbacks = allowFallback ? ordered.filter((r) => r !== first && isReady(r) && routerBlocked(r).length === 0) : [];
  const planned = new Set([first, ...fallbacks]);
  const skipped = ordered.filter((r) => !planned.has(r)).map((r) => whyNotPlanned(r, input, routerBlocked(r)));
  return { routes: [first, ...fallbacks], allowFallback, notTried: skipped };
}

/** Why a route of the plan's input is not in the plan: what this executor or the router says of it first, then the caller's pins. */
function whyNotPlanned(route: Route, input: PlanInput, blocks: readonly string[]): NotTriedRoute {
  const readiness = input.readiness(route);
  if (!readiness.ready) {
    if (readiness.kind === "unavailable") return notTried(route, "unavailable", readiness.reason);
    return notTried(route, readiness.blocking === "ROUTE_PENDING" ? "planned" : "gated", readiness.reason);
  }
  if (blocks.length > 0) return notTried(route, routerReason(blocks), `the router blocks it: ${blocks.join(", ")}`);
  const { routeKey, provider } = input.controls;
  if (routeKey !== undefined) return notTried(route, "pinned_elsewhere", `routeKey pins ${routeKey}`);
  if (provider !== undefined && route.providerKey !== provider) return notTried(route, "pinned_elsewhere", `provider pins ${provider}`);
  return notTried(route, "fallback_off", "allowFallback is false");
}

/** Routes in the router's order (unranked ones after, cheapest first); without a ranking, cheapest first. */
function rankedOrder(routes: readonly Route[], ranking: readonly RecommendationCandidate[] | undefined): Route[] {
  const rank = new Map((ranking ?? []).map((c, i) => [c.routeKey, i]));
  return [...routes].sort((a, b) => {
    const ra = rank.get(a.routeKey) ?? Infinity;
    const rb = rank.get(b.routeKey) ?? Infinity;
    if (ra !== rb) return ra - rb;
    return a.startingCostCredits - b.startingCostCredits || a.routeKey.localeCompare(b.routeKey);
  });
}

/** The error refusing a pinned route this executor cannot run. */
function refusal(route: Route, readiness: Exclude<RouteReadiness, { ready: true }>): Error {
  if (readiness.kind === "unavailable") {
    return routeUnavailable(
      `Route ${route.routeKey} cannot run on this deployment: ${readiness.reason}. Nothing was charged.`,
      "Execute another route of the capability, or retry later.",
    );
  }
  return capabilityGated(
    `Route ${route.routeKey} cannot be executed: ${readiness.reason}. Nothing was charged.`,
    [readiness.blocking],
    "Call recommend and execute a route whose canExecuteNow is true, or omit the pin to let the router choose.",
  );
}

function nothingExecutable(
  capability: Capability,
  ordered: readonly Route[],
  readiness: (route: Route) => RouteReadiness,
  routerBlocked: (route: Route) => string[],
): Error {
  const ready = ordered.filter((r) => readiness(r).ready);
  if (ready.length > 0) {
    // Ready here but refused by the router: every breaker is open (or a feature asked for is missing).
    const why = ready.map((r) => `${r.routeKey}: ${routerBlocked(r).join(", ")}`).join("; ");
    return routeUnavailable(
      `No route of ${capability.capabilityKey} can run right now (${why}). Nothing was charged.`,
      "Retry shortly; call recommend to see each route's blocking requirements.",
    );
  }
  const gated = ordered
    .map((r) => ({ route: r, readiness: readiness(r) }))
    .filter((x) => !x.readiness.ready && x.readiness.kind === "gated");
  if (gated.length === 0) {
    return routeUnavailable(
      `No route of ${capability.capabilityKey} can run on this deployment. Nothing was charged.`,
      "Retry later; call recommend to compare routes.",
    );
  }
  const blocking = [...new Set(gated.map((g) => (g.readiness as { blocking: string }).blocking))];
  const why = gated.map((g) => `${g.route.routeKey}: ${(g.readiness as { reason: string }).reason}`).join("; ");
  return capabilityGated(
    `No route of ${capability.capabilityKey} can be executed (${why}). Nothing was charged.`,
    blocking,
    "Call recommend and follow nextActions.",
  );
}
