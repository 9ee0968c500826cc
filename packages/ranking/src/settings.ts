// The settings of the ranking, read from the environment by every process that ranks (the router and
// the executor): both parse them with this one schema, so the same environment ranks alike in both.
import { z } from "zod";
import { GOALS, isGoal, type Goal } from "./domain/goals";
import type { HealthSettings } from "./domain/route-health";
import type { ScoringSettings } from "./domain/scoring";

const positiveInt = z.coerce.number().int().positive();
const fraction = z.coerce.number().gt(0).lte(1);

/** "cost,reliability" → ["cost", "reliability"]: known goals, each once, at least one. */
const goalListSchema = z
  .string()
  .transform((s) =>
    s
      .split(",")
      .map((g) => g.trim())
      .filter((g) => g !== ""),
  )
  .refine((goals) => goals.length > 0 && goals.every(isGoal) && new Set(goals).size === goals.length, {
    error: `must list distinct goals from ${GOALS.join(", ")}, comma-separated`,
  })
  .transform((goals) => goals as Goal[]);

/** The ranking's environment variables (the router's README documents them); spread into a service's config schema. */
export const rankingConfigShape = {
  /** Goals applied when neither the request nor the agent's memory names any. Example: cost,reliability. */
  DEFAULT_PREFERENCES: goalListSchema.default(["cost", "reliability"]),
  /** Weight ratio between consecutive named goals (rank i weighs DECAY^i). */
  WEIGHT_DECAY: fraction.default(0.3),
  /** Raw weight of each goal the request does not name. */
  UNNAMED_GOAL_WEIGHT: z.coerce.number().min(0).max(1).default(0.05),
  /** Success rate that scores 0 on reliability (1.0 scores 1). */
  RELIABILITY_ZERO_AT: z.coerce.number().min(0).lt(1).default(0.8),
  /** How many calls the catalog priors count for when blended with live traffic. */
  PRIOR_WEIGHT_CALLS: z.coerce.number().min(0).default(20),

  /** Outcomes per route in the success-rate window. */
  HEALTH_SUCCESS_WINDOW: positiveInt.default(200),
  /** Successful latencies per route in the p50 window. */
  HEALTH_LATENCY_WINDOW: positiveInt.default(50),
  /** Weight of the newest latency in the EWMA. */
  HEALTH_EWMA_ALPHA: fraction.default(0.2),
  /** Consecutive failures that open a route's breaker. */
  BREAKER_FAILURES: positiveInt.default(5),
  /** Time an open breaker waits after the last failure before half-opening, in ms. */
  BREAKER_COOLDOWN_MS: positiveInt.default(30_000),
  /** Routes whose health is tracked at most (least recently reported forgotten first; recommends do not count). */
  HEALTH_MAX_ROUTES: positiveInt.default(10_000),
  /** Spent fraction of a route's vendor quota from which it ranks below its alternatives (before the vendor refuses anyone). */
  VENDOR_QUOTA_LOW_AT: fraction.default(0.8),
  /** (route, caller) pairs whose own consecutive failures are tracked at most (each caller's own breaker). */
  HEALTH_MAX_CALLER_ROUTES: positiveInt.default(100_000),
  /** How far back outcomes are replayed when a replica starts, in ms (the ledger's NATS_STREAM_KEEP_MS must be at least this). */
  OUTCOME_REPLAY_MS: positiveInt.default(10 * 60_000),
  /** Longest wait at start for the replay to catch up before serving anyway (logged), in ms. */
  OUTCOME_REPLAY_TIMEOUT_MS: positiveInt.default(60_000),
};

/** The names of the ranking's environment variables: a test system passes the router's overrides to the executor too. */
export const RANKING_ENV_NAMES = Object.keys(rankingConfigShape) as (keyof typeof rankingConfigShape)[];

export type RankingConfig = z.infer<z.ZodObject<typeof rankingConfigShape>>;

/** How recommend weighs goals and blends catalog priors with live traffic. */
export function scoringSettings(config: RankingConfig): ScoringSettings {
  return {
    weights: { decay: config.WEIGHT_DECAY, unnamedWeight: config.UNNAMED_GOAL_WEIGHT },
    reliabilityZeroAt: config.RELIABILITY_ZERO_AT,
    priorWeightCalls: config.PRIOR_WEIGHT_CALLS,
    quotaLowAt: config.VENDOR_QUOTA_LOW_AT,
  };
}

/** How route health learns from outcomes (windows, EWMA, breaker, memory bound). */
export function healthSettings(config: RankingConfig): HealthSettings {
  return {
    successWindow: config.HEALTH_SUCCESS_WINDOW,
    latencyWindow: config.HEALTH_LATENCY_WINDOW,
    ewmaAlpha: config.HEALTH_EWMA_ALPHA,
    breakerFailures: config.BREAKER_FAILURES,
    breakerCooldownMs: config.BREAKER_COOLDOWN_MS,
    maxRoutes: config.HEALTH_MAX_ROUTES,
    maxCallerRoutes: config.HEALTH_MAX_CALLER_ROUTES,
  };
}
