// Configuration of the router service, read once from the environment, and the settings the domain
// takes from it. Defaults suit local development; the scoring and health knobs are documented in README.md.
import { z } from "zod";
import {
  addressSchema,
  appEnvSchema,
  checkNatsCredentials,
  busConfigShape,
  portSchema,
  logLevelSchema,
  serviceIdentityKeySchema,
  trustedServiceKeysSchema,
  type JetStreamFootprint,
} from "@agentic/platform";
import { GOALS, isGoal, type Goal } from "./domain/goals";
import type { HealthSettings } from "./domain/route-health";
import { PREFERENCES_BUCKET, RECOMMENDATIONS_BUCKET } from "./store/bucket-names";
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

/** Local-development addresses of the dependencies; production must set them. */
const LOCAL_ADDRESSES = { CATALOG_ADDR: "127.0.0.1:50051", LEDGER_ADDR: "127.0.0.1:50054" } as const;

const fields = z.object({
  /** gRPC port. Example: 50052. */
  PORT: portSchema.default(50052),
  /** Port of the Prometheus /metrics endpoint. Example: 9464. Local default 9462. */
  METRICS_PORT: portSchema.default(9462),
  /** development | test | production. */
  APP_ENV: appEnvSchema,
  /** Catalog service, host:port. Example: catalog:50051. Local default 127.0.0.1:50051; required in production. */
  CATALOG_ADDR: addressSchema.optional(),
  /** Ledger service (wallet reads), host:port. Example: ledger:50054. Local default 127.0.0.1:50054; required in production. */
  LEDGER_ADDR: addressSchema.optional(),
  /** NATS_URL, NATS_STREAM_REPLICAS, and NATS user `router` with its password (deploy/k8s/components/nats/auth.conf; required in production). */
  ...busConfigShape,
  /** pino level: fatal, error, warn, info, debug, trace, silent. */
  LOG_LEVEL: logLevelSchema,
  /** This service's Ed25519 private key (base64 PKCS#8 DER, from a Secret), proving who calls on every gRPC call. `npm start` generates one. */
  SERVICE_IDENTITY_KEY: serviceIdentityKeySchema,
  /** Public keys of the callers it accepts (gateway, executor), `name=<base64 SPKI DER>,...`, from a Secret; src/access.ts says who may call what. */
  TRUSTED_SERVICE_KEYS: trustedServiceKeysSchema,
  /** Deadline of each catalog and ledger call, in ms (capped by the caller's remaining budget). */
  DEPENDENCY_DEADLINE_MS: positiveInt.default(2_000),
  /** How often the catalog version is checked for changes, in ms. */
  CATALOG_REFRESH_MS: positiveInt.default(5_000),

  /** Goals applied when neither the request nor the agent's memory names any. Example: cost,reliability. */
  DEFAULT_PREFERENCES: goalListSchema.default(["cost", "reliability"]),
  /** How long an agent's last explicit preferences are remembered after it last gave them, in ms (shared KV `router_preferences`). */
  AGENT_PREFERENCES_TTL_MS: positiveInt.default(30 * 86_400_000),
  /** Most bytes the remembered preferences take in NATS (oldest dropped first when full), e.g. 268435456 (256 MiB). */
  AGENT_PREFERENCES_MAX_BYTES: positiveInt.min(1024 ** 2).default(256 * 1024 ** 2),
  /**
   * Most distinct agent names whose preferences are remembered per user at once, e.g. 1000; one more is
   * refused (AGENT_NAMES_EXHAUSTED) until a name goes unused for AGENT_PREFERENCES_TTL_MS. Bounds what
   * free recommends can store, so they cannot crowd out the EXECUTIONS stream in JetStream storage.
   */
  AGENT_NAMES_PER_USER_MAX: positiveInt.max(10_000).default(1_000),
  /** How long an answered recommendation stays usable by its recommendationId, in ms (shared KV `router_recommendations`). */
  RECOMMENDATION_TTL_MS: positiveInt.min(1_000).default(10 * 60_000),
  /** Most bytes the stored recommendations take in NATS (oldest dropped first when full), e.g. 268435456 (256 MiB). */
  RECOMMENDATION_STORE_MAX_BYTES: positiveInt.min(1024 ** 2).default(256 * 1024 ** 2),
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
});

export const configSchema = fields
  .superRefine((c, ctx) => {
    checkNatsCredentials(c, ctx);
    if (c.APP_ENV !== "production") return;
    for (const name of Object.keys(LOCAL_ADDRESSES) as (keyof typeof LOCAL_ADDRESSES)[]) {
      if (c[name] === undefined) ctx.addIssue({ code: "custom", path: [name], message: `${name} is required when APP_ENV=production` });
    }
  })
  .transform((c) => ({
    ...c,
    CATALOG_ADDR: c.CATALOG_ADDR ?? LOCAL_ADDRESSES.CATALOG_ADDR,
    LEDGER_ADDR: c.LEDGER_ADDR ?? LOCAL_ADDRESSES.LEDGER_ADDR,
  }));

export type Config = z.infer<typeof configSchema>;

/**
 * Every stream and bucket the router creates and its byte limit: the deployment checks
 * (scripts/k8s/validate.mjs) add them to the other services' and keep the sum below the NATS
 * server's max_file_store, so none can take the EXECUTIONS stream's room.
 */
export function jetStreamFootprint(
  config: Pick<Config, "RECOMMENDATION_STORE_MAX_BYTES" | "AGENT_PREFERENCES_MAX_BYTES">,
): JetStreamFootprint[] {
  return [
    { kind: "bucket", name: RECOMMENDATIONS_BUCKET, maxBytes: config.RECOMMENDATION_STORE_MAX_BYTES },
    { kind: "bucket", name: PREFERENCES_BUCKET, maxBytes: config.AGENT_PREFERENCES_MAX_BYTES },
  ];
}

/** How recommend weighs goals and blends catalog priors with live traffic. */
export function scoringSettings(config: Config): ScoringSettings {
  return {
    weights: { decay: config.WEIGHT_DECAY, unnamedWeight: config.UNNAMED_GOAL_WEIGHT },
    reliabilityZeroAt: config.RELIABILITY_ZERO_AT,
    priorWeightCalls: config.PRIOR_WEIGHT_CALLS,
    quotaLowAt: config.VENDOR_QUOTA_LOW_AT,
  };
}

/** How route health learns from outcomes (windows, EWMA, breaker, memory bound). */
export function healthSettings(config: Config): HealthSettings {
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
