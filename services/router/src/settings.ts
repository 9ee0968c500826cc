// Turns the validated config into the settings the domain takes (one place maps env names to knobs).
import type { Config } from "./config";
import type { HealthSettings } from "./domain/route-health";
import type { ScoringSettings } from "./domain/scoring";

export function scoringSettings(config: Config): ScoringSettings {
  return {
    weights: { decay: config.WEIGHT_DECAY, unnamedWeight: config.UNNAMED_GOAL_WEIGHT },
    reliabilityZeroAt: config.RELIABILITY_ZERO_AT,
    priorWeightCalls: config.PRIOR_WEIGHT_CALLS,
  };
}

export function healthSettings(config: Config): HealthSettings {
  return {
    successWindow: config.HEALTH_SUCCESS_WINDOW,
    latencyWindow: config.HEALTH_LATENCY_WINDOW,
    ewmaAlpha: config.HEALTH_EWMA_ALPHA,
    breakerFailures: config.BREAKER_FAILURES,
    breakerCooldownMs: config.BREAKER_COOLDOWN_MS,
    maxRoutes: config.HEALTH_MAX_ROUTES,
  };
}
