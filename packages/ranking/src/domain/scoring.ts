// Scores routes against the weighted goals. Each goal score is in [0, 1]; the route score is their
// weighted sum (weights sum to 1), so it is in [0, 1] too. Live health replaces the catalog priors
// as traffic accumulates (the prior counts as `priorWeightCalls` pseudo-calls).
import type { Route, RoutePriors } from "@agentic/proto/catalog/v1";
import { GOALS, type Goal, type GoalWeights, type WeightScheme } from "./goals";
import type { RouteHealth } from "./route-health";

export interface ScoringSettings {
  weights: WeightScheme;
  /** Success rate that scores 0 on reliability (1.0 scores 1, linear between). Default 0.8. */
  reliabilityZeroAt: number;
  /** How many calls the catalog prior is worth when blended with live traffic. Default 20. */
  priorWeightCalls: number;
  /** Spent fraction of a route's vendor quota from which it ranks below routes with room. Default 0.8. */
  quotaLowAt: number;
}

/** Priors assumed for a route the catalog gives none (the catalog normally always does). */
export const FALLBACK_PRIORS: Readonly<RoutePriors> = { successRate: 0.9, latencyMs: 2_000, quality: 0.5 };

/** Expected behaviour of one route: catalog priors blended with its live traffic. */
export interface RouteEstimate {
  successRate: number;
  latencyMs: number;
  quality: number;
}

export type GoalScores = Readonly<Record<Goal, number>>;

/** A route with its estimate, goal scores and final score. */
export interface ScoredRoute {
  route: Route;
  estimate: RouteEstimate;
  goals: GoalScores;
  /** Weighted score rounded to 4 decimals; 0 when disqualified. */
  score: number;
  /** Not to be picked: an asked-for feature is missing or its breaker is open. */
  disqualified: boolean;
  /** Its vendor quota is running out or spent: ranked below every eligible route with room. */
  demoted?: boolean;
}

/** Blends the catalog priors with live health: (k·prior + n·observed) / (k + n). */
export function estimateRoute(route: Route, health: RouteHealth | undefined, settings: ScoringSettings): RouteEstimate {
  const prior = route.priors ?? FALLBACK_PRIORS;
  const k = settings.priorWeightCalls;
  const n = health?.calls ?? 0;
  const m = health?.ewmaLatencyMs === undefined ? 0 : health.latencySamples;
  return {
    successRate: n === 0 ? prior.successRate : (k * prior.successRate + n * health!.successRate) / (k + n),
    latencyMs: m === 0 ? prior.latencyMs : (k * prior.latencyMs + m * health!.ewmaLatencyMs!) / (k + m),
    quality: prior.quality,
  };
}

/**
 * Goal scores of each route relative to the whole candidate set:
 * cost = cheapest price / price; speed = fastest latency / latency;
 * reliability = (successRate - zeroAt) / (1 - zeroAt), clamped; quality = the catalog's rating.
 */
export function goalScores(routes: readonly { price: number; estimate: RouteEstimate }[], settings: ScoringSettings): GoalScores[] {
  const cheapest = Math.min(...routes.map((r) => r.price));
  const fastest = Math.min(...routes.map((r) => r.estimate.latencyMs));
  return routes.map(({ price, estimate }) => ({
    cost: price <= 0 ? 1 : clamp(cheapest / price),
    reliability: clamp((estimate.successRate - settings.reliabilityZeroAt) / (1 - settings.reliabilityZeroAt)),
    speed: estimate.latencyMs <= 0 ? 1 : clamp(fastest / estimate.latencyMs),
    quality: clamp(estimate.quality),
  }));
}

/** Σ weight·goal score, rounded to 4 decimals so near-equal routes tie and break by price, then key. */
export function weightedScore(goals: GoalScores, weights: GoalWeights): number {
  const sum = GOALS.reduce((acc, g) => acc + weights[g] * goals[g], 0);
  return Math.round(clamp(sum) * 10_000) / 10_000;
}

/** Best first: eligible before disqualified, quota room before none, higher score, lower price, then route key (stable across replicas). */
export function compareScored(a: ScoredRoute, b: ScoredRoute): number {
  return (
    Number(a.disqualified) - Number(b.disqualified) ||
    Number(a.demoted ?? false) - Number(b.demoted ?? false) ||
    b.score - a.score ||
    a.route.startingCostCredits - b.route.startingCostCredits ||
    (a.route.routeKey < b.route.routeKey ? -1 : a.route.routeKey > b.route.routeKey ? 1 : 0)
  );
}

function clamp(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
