// Readable reasons for one candidate: price against the field, reliability and latency with where
// the figures come from (live traffic or catalog priors), features asked for, breaker state, and
// how the score was composed.
import type { Route } from "@agentic/proto/catalog/v1";
import type { Goal, GoalWeights } from "./goals";
import type { RouteHealth } from "./route-health";
import type { ScoredRoute } from "./scoring";
import { isLiveRoute } from "./route-status";

export interface ReasonContext {
  /** The prices every candidate's price reason compares with, computed once per request (priceField). */
  prices: PriceField;
  /** Applied goals, most important first. */
  goals: readonly Goal[];
  weights: GoalWeights;
  featureAsks: readonly string[];
}

/** The cheapest price among the capability's routes, and among its live ones (undefined when none is live). */
export interface PriceField {
  cheapest: number;
  cheapestLive: number | undefined;
}

/** The price field of `routes`, read once per request (not once per candidate: that was quadratic in the routes). */
export function priceField(routes: readonly Route[]): PriceField {
  let cheapest = Infinity;
  let cheapestLive: number | undefined;
  for (const r of routes) {
    cheapest = Math.min(cheapest, r.startingCostCredits);
    if (isLiveRoute(r)) cheapestLive = Math.min(cheapestLive ?? Infinity, r.startingCostCredits);
  }
  return { cheapest, cheapestLive };
}

/** Reasons for `scored`, most telling first. */
export function candidateReasons(scored: ScoredRoute, health: RouteHealth | undefined, ctx: ReasonContext): string[] {
  const { route } = scored;
  const reasons: string[] = [priceReason(route, ctx.prices)];

  for (const feature of ctx.featureAsks) {
    reasons.push(route.supportedFeatures.includes(feature) ? `supports ${feature}` : `does not support ${feature}, which was asked for`);
  }

  if (health && health.calls > 0) {
    reasons.push(`${percent(health.successRate)} success over the last ${health.calls} calls`);
  } else {
    reasons.push(
      `no live traffic yet: ${percent(route.priors?.successRate ?? scored.estimate.successRate)} success expected (catalog prior)`,
    );
  }
  if (health?.p50LatencyMs !== undefined) {
    reasons.push(`p50 ${Math.round(health.p50LatencyMs)} ms over the last ${health.latencySamples} successful calls`);
  } else {
    reasons.push(`p50 ${Math.round(route.priors?.latencyMs ?? scored.estimate.latencyMs)} ms expected (catalog prior)`);
  }
  reasons.push(`quality ${scored.estimate.quality.toFixed(2)} (catalog rating)`);

  if (health?.breaker === "open") {
    reasons.push(
      `${health.breakerScope === "caller" ? "your own breaker" : "breaker"} open after ${health.consecutiveFailures} consecutive failures (last: ${health.lastErrorKind ?? "unknown"}); not picked until ${new Date(health.retryAtMs ?? 0).toISOString()}`,
    );
  } else if (health?.breaker === "half_open") {
    reasons.push(`recovering after ${health.consecutiveFailures} consecutive failures: the next call is a trial`);
  }

  reasons.push(scored.disqualified ? "score 0: not picked while the above blocks it" : scoreReason(scored, ctx));
  return reasons;
}

function priceReason(route: Route, { cheapest, cheapestLive }: PriceField): string {
  const price = route.startingCostCredits;
  if (isLiveRoute(route) && price === cheapestLive) return `cheapest live route: ${price} credits`;
  if (price === cheapest) return `cheapest route: ${price} credits`;
  return `${price} credits, ${price - cheapest} more than the cheapest route`;
}

function scoreReason(scored: ScoredRoute, ctx: ReasonContext): string {
  const order = [...ctx.goals, ...(["cost", "reliability", "speed", "quality"] as const).filter((g) => !ctx.goals.includes(g))];
  const terms = order.map((g) => `${ctx.weights[g].toFixed(2)}×${g} ${scored.goals[g].toFixed(2)}`);
  return `score ${scored.score.toFixed(3)} = ${terms.join(" + ")}`;
}

function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}
