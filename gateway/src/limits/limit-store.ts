// Where the per-key rate counts and in-flight counts live. In process by default (the embedded
// `npm start` system runs one gateway, and every count is exact there); in Redis when
// RATE_LIMIT_REDIS_URL is set, so that N gateway replicas enforce one limit per key instead of N.
// The rate limiters are rate-limiter-flexible's (memory and Redis, same semantics); when Redis
// fails they fall back to their in-process insurance limiter (per-replica limits) rather than
// refusing traffic.
import { Redis } from "ioredis";
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Logger } from "@agentic/platform";
import { BURST_WINDOW_SECONDS } from "./key-limits";
import { MemoryInFlight, RedisInFlight, type InFlightCounter } from "./in-flight";

/** The answer to one request counted against a rate. */
export interface RateDecision {
  allowed: boolean;
  /** Requests left in the current window of the base rate. */
  remaining: number;
  /** Until the current window ends, in ms. */
  msBeforeNext: number;
}

export interface LimitStore {
  readonly kind: "memory" | "redis";
  /** Counts one request of `keyId` against `requestsPerSecond` with `burst`. */
  consumeRate(keyId: string, requestsPerSecond: number, burst: number): Promise<RateDecision>;
  /** Counts one request of client `ip` that presented no valid API key. */
  consumeUnauthenticated(ip: string): Promise<RateDecision>;
  inFlight: InFlightCounter;
  /** Settles once the store is connected, or has failed to connect (then counts stay in process until it does). */
  ready: Promise<void>;
  close(): Promise<void>;
}

export interface LimitStoreOptions {
  /** redis://… to share counts between replicas; unset: in this process. */
  redisUrl?: string;
  /** Prefix of every Redis key (tests and several deployments on one Redis use their own). */
  redisPrefix: string;
  /** Requests without a valid key a client IP may send per minute. */
  unauthenticatedPerMinute: number;
  /** How long a shared in-flight slot outlives a replica that died holding it, in ms (longer than any request). */
  inFlightLeaseMs: number;
  logger: Logger;
}

type Limiter = Pick<RateLimiterAbstract, "consume"> | BurstyRateLimiter;

async function decide(limiter: Limiter, key: string): Promise<RateDecision> {
  try {
    const res = await limiter.consume(key);
    return { allowed: true, remaining: res.remainingPoints, msBeforeNext: res.msBeforeNext };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { allowed: false, remaining: 0, msBeforeNext: rejection.msBeforeNext };
    throw rejection;
  }
}

export function createLimitStore(opts: LimitStoreOptions): LimitStore {
  const redis = opts.redisUrl ? newRedis(opts.redisUrl) : undefined;

  /** A fixed-window limiter: `points` per `duration` seconds, in Redis (with an in-process insurance) or in memory. */
  const fixedWindow = (keyPrefix: string, points: number, duration: number): RateLimiterAbstract => {
    const memory = new RateLimiterMemory({ keyPrefix, points, duration });
    if (!redis) return memory;
    return new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${opts.redisPrefix}${keyPrefix}`,
      points,
      duration,
      rejectIfRedisNotReady: true,
      insuranceLimiter: memory,
    });
  };

  // One limiter per distinct (rate, burst): the library fixes points per limiter. Keys share their
  // tier's limiter; the number of tiers is small (the default and a few overrides).
  const tiers = new Map<string, Limiter>();
  const tier = (rps: number, burst: number): Limiter => {
    const id = `${rps}/${burst}`;
    let limiter = tiers.get(id);
    if (!limiter) {
      const base = fixedWindow(`rate:${rps}`, rps, 1);
      // The library's way to allow bursts: once the second's points are spent, up to burst − rate
      // more come from a second limiter that refills every BURST_WINDOW_SECONDS.
      limiter = burst > rps ? new BurstyRateLimiter(base, fixedWindow(`burst:${id}`, burst - rps, BURST_WINDOW_SECONDS)) : base;
      tiers.set(id, limiter);
    }
    return limiter;
  };
  const unauthenticated = fixedWindow("unauthenticated", opts.unauthenticatedPerMinute, 60);

  let lastStoreWarning = 0;
  const onStoreError = (err: unknown) => {
    // One line per 10 s at most: an outage would otherwise log once per request.
    if (Date.now() - lastStoreWarning < 10_000) return;
    lastStoreWarning = Date.now();
    opts.logger.warn({ err }, "rate-limit store failed; counting in this process until it is back");
  };
  const inFlight = redis
    ? new RedisInFlight(redis, { prefix: `${opts.redisPrefix}inflight:`, leaseMs: opts.inFlightLeaseMs, onStoreError })
    : new MemoryInFlight();
  redis?.on("error", onStoreError);

  return {
    kind: redis ? "redis" : "memory",
    consumeRate: (keyId, rps, burst) => decide(tier(rps, burst), keyId),
    consumeUnauthenticated: (ip) => decide(unauthenticated, ip),
    inFlight,
    ready: redis
      ? redis.connect().then(
          () => opts.logger.info("rate-limit store connected"),
          (err: unknown) => opts.logger.warn({ err }, "rate-limit store not reachable; counting in this process until it is"),
        )
      : Promise.resolve(),
    async close() {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

function newRedis(url: string): Redis {
  return new Redis(url, {
    // Commands fail at once while disconnected (the limiters then count in process) instead of
    // queueing requests behind a dead store; a slow store is cut off after commandTimeout.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
    connectTimeout: 2_000,
    lazyConnect: true,
  });
}
