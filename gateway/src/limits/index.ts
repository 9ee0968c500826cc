// Builds the gateway's limits from its configuration: the per-caller limits (rate, in-flight cap,
// per-IP budget without a valid key) and the load shedder, and closes what they hold.
import type { Logger } from "@agentic/platform";
import type { GatewayMetrics } from "../metrics";
import type { Config } from "../config";
import { keyRecordLimits, type KeyLimitsSource } from "./key-limits";
import { createLimitStore } from "./limit-store";
import type { CallerLimits } from "./limit-callers";
import { createLoadShedder, type LoadShedder } from "./shed-load";

export type LimitsConfig = Pick<
  Config,
  | "RATE_LIMIT_RPS"
  | "RATE_LIMIT_BURST"
  | "RATE_LIMIT_MAX_IN_FLIGHT"
  | "RATE_LIMIT_UNAUTHENTICATED_PER_MIN"
  | "RATE_LIMIT_REDIS_URL"
  | "RATE_LIMIT_REDIS_PREFIX"
  | "SHED_MAX_IN_FLIGHT"
  | "SHED_EVENT_LOOP_DELAY_MS"
  | "EXECUTE_DEADLINE_MS"
>;

export interface Limits {
  callers: CallerLimits;
  shedder: LoadShedder;
  close(): Promise<void>;
}

/** Event-loop delay is averaged over windows this long. */
const SHED_SAMPLE_MS = 500;

/**
 * `source` gives each key its limits; default: the key record's own (the caller's), else RATE_LIMIT_*. Waits (at most the
 * store's connect timeout) for a shared store, so counts are shared from the first request.
 */
export async function startLimits(
  config: LimitsConfig,
  logger: Logger,
  metrics: GatewayMetrics,
  source?: KeyLimitsSource,
): Promise<Limits> {
  const store = createLimitStore({
    redisUrl: config.RATE_LIMIT_REDIS_URL,
    redisPrefix: config.RATE_LIMIT_REDIS_PREFIX,
    unauthenticatedPerMinute: config.RATE_LIMIT_UNAUTHENTICATED_PER_MIN,
    // No request lives longer than an execute's deadline; the margin covers writing its answer.
    inFlightLeaseMs: config.EXECUTE_DEADLINE_MS + 30_000,
    logger,
  });
  await store.ready;
  const shedder = createLoadShedder(
    {
      maxInFlight: config.SHED_MAX_IN_FLIGHT,
      maxEventLoopDelayMs: config.SHED_EVENT_LOOP_DELAY_MS,
      sampleMs: SHED_SAMPLE_MS,
    },
    metrics,
  );
  const callers: CallerLimits = {
    store,
    source:
      source ??
      keyRecordLimits({
        requestsPerSecond: config.RATE_LIMIT_RPS,
        burst: config.RATE_LIMIT_BURST,
        maxInFlight: config.RATE_LIMIT_MAX_IN_FLIGHT,
      }),
    unauthenticatedPerMinute: config.RATE_LIMIT_UNAUTHENTICATED_PER_MIN,
    metrics,
  };
  logger.info(
    {
      store: store.kind,
      rps: config.RATE_LIMIT_RPS,
      burst: config.RATE_LIMIT_BURST,
      maxInFlightPerKey: config.RATE_LIMIT_MAX_IN_FLIGHT,
      shedMaxInFlight: config.SHED_MAX_IN_FLIGHT,
      shedEventLoopDelayMs: config.SHED_EVENT_LOOP_DELAY_MS,
    },
    "request limits",
  );
  return {
    callers,
    shedder,
    async close() {
      shedder.close();
      await store.close();
    },
  };
}
