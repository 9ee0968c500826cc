// Live health of each route, learned from execution outcomes: success rate over a sliding window,
// EWMA, p50 and p95 latency of successful calls, and a consecutive-failure circuit breaker.
// Only the route's own failures count, and only as far as more than one caller saw them
// (caller-evidence.ts): a caller's input refusals, and failures only that caller provoked, are kept
// for that caller (its own breaker), so one caller cannot take a route away from everyone.
// Deterministic in the outcome sequence and event times, so replicas fed the same stream agree:
// reads never change any state (not even the eviction order), only recorded outcomes do.
import { CallerBreakers, CallerTally, PLATFORM_CALLER } from "./caller-evidence";
import { LruMap } from "./lru";

export interface HealthSettings {
  /** Outcomes kept per route for the success rate. Default 200. */
  successWindow: number;
  /** Latencies of successful calls kept per route for the p50. Default 50. */
  latencyWindow: number;
  /** Weight of the newest latency in the EWMA, 0 < alpha <= 1. Default 0.2. */
  ewmaAlpha: number;
  /** Consecutive failures that open a route's breaker. Default 5. */
  breakerFailures: number;
  /** How long a breaker stays open after the last failure before it half-opens, in ms. Default 30000. */
  breakerCooldownMs: number;
  /** Routes tracked at most; the least recently reported is forgotten first (reads do not count). Default 10000. */
  maxRoutes: number;
  /** (route, caller) pairs whose own failures are tracked at most, least recently reported forgotten first. Default 100000. */
  maxCallerRoutes: number;
}

/** One provider attempt, as the executor reports it (agentic.events.v1.RouteOutcome). */
export interface RouteOutcomeObservation {
  routeKey: string;
  ok: boolean;
  /** Empty when ok; else timeout, http_5xx, http_4xx, payment, network or invalid_response. */
  errorKind: string;
  latencyMs: number;
  /** When the attempt finished (executor clock), ms since the epoch. */
  observedAtMs: number;
  /** Whose attempt: the user id; empty or absent for the platform's own evidence (a probe). */
  userId?: string;
  /** A failure's blame: `input` (the vendor refused the caller's request) is never the route's fault. Default provider. */
  blame?: string;
}

/**
 * closed: normal. open: `breakerFailures` consecutive failures and the cool-down has not passed;
 * the route is not picked. half_open: cool-down passed; the next call is a trial that closes the
 * breaker on success or re-opens it on failure.
 */
export type BreakerState = "closed" | "open" | "half_open";

/** What the router knows of one route's recent traffic. */
export interface RouteHealth {
  /** Outcomes in the success window (0 < calls <= successWindow). */
  calls: number;
  /** Share of successful outcomes in the window, 0..1. */
  successRate: number;
  /** Successful latencies in the latency window. */
  latencySamples: number;
  /** EWMA of successful-call latency, ms; undefined before the first success. */
  ewmaLatencyMs?: number;
  /** Median successful-call latency over the latency window, ms. */
  p50LatencyMs?: number;
  /** 95th percentile successful-call latency over the latency window, ms (nearest rank). */
  p95LatencyMs?: number;
  breaker: BreakerState;
  /** Whose breaker: the route's (for everyone), or the caller's own (set only on a read for that caller). */
  breakerScope?: "route" | "caller";
  consecutiveFailures: number;
  /** errorKind of the latest failure. */
  lastErrorKind?: string;
  /** When the latest failure happened (event time), ms since the epoch; unset before the first failure. */
  lastFailureAtMs?: number;
  /** When an open breaker half-opens, ms since the epoch (set while open). */
  retryAtMs?: number;
}

/** Fixed-size ring; push returns the value it pushed out, if any. */
class Ring<T> {
  private readonly items: T[] = [];
  private next = 0;

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.items.length;
  }

  push(value: T): T | undefined {
    if (this.items.length < this.capacity) {
      this.items.push(value);
      return undefined;
    }
    const evicted = this.items[this.next];
    this.items[this.next] = value;
    this.next = (this.next + 1) % this.capacity;
    return evicted;
  }

  values(): readonly T[] {
    return this.items;
  }
}

/** One route-blamed outcome in the success window: ok, or the caller whose attempt failed. */
type WindowEntry = { ok: true } | { ok: false; caller: string };

class RouteState {
  readonly outcomes: Ring<WindowEntry>;
  readonly latencies: Ring<number>;
  successes = 0;
  /** Failures in the success window, per caller. */
  readonly windowFailures = new CallerTally();
  /** The current run of consecutive failures, per caller. */
  readonly streak = new CallerTally();
  ewmaLatencyMs: number | undefined;
  lastFailureAtMs = 0;
  lastErrorKind: string | undefined;
  /** `latencies` sorted, cached: recomputed on the first read after addLatency() made it dirty. */
  private sorted: number[] = [];
  private sortedDirty = false;

  constructor(settings: HealthSettings) {
    this.outcomes = new Ring(settings.successWindow);
    this.latencies = new Ring(settings.latencyWindow);
  }

  addLatency(ms: number): void {
    this.latencies.push(ms);
    this.sortedDirty = true;
  }

  /** Nearest-rank percentile (0 < p <= 1) of the latency window; undefined while it is empty. */
  latencyPercentile(p: number): number | undefined {
    if (this.sortedDirty) {
      this.sorted = [...this.latencies.values()].sort((a, b) => a - b);
      this.sortedDirty = false;
    }
    return this.sorted[Math.ceil(this.sorted.length * p) - 1];
  }
}

/** Health of every route seen on the outcome stream. */
export class RouteHealthBook {
  private readonly routes: LruMap<string, RouteState>;
  private readonly callers: CallerBreakers;

  constructor(private readonly settings: HealthSettings) {
    this.routes = new LruMap(settings.maxRoutes);
    this.callers = new CallerBreakers(settings);
  }

  /** Applies one outcome. Outcomes must arrive in stream order (each replica reads the same order). */
  record(o: RouteOutcomeObservation): void {
    const caller = o.userId ?? PLATFORM_CALLER;
    this.callers.record(o.routeKey, caller, o.ok, o.errorKind, o.observedAtMs);
    // The vendor refused what the caller asked: the route worked, the caller's own run counts it.
    if (!o.ok && o.blame === "input") return;
    let state = this.routes.get(o.routeKey);
    if (!state) {
      state = new RouteState(this.settings);
      this.routes.set(o.routeKey, state);
    }
    const evicted = state.outcomes.push(o.ok ? { ok: true } : { ok: false, caller });
    if (evicted?.ok === true) state.successes -= 1;
    else if (evicted) state.windowFailures.remove(evicted.caller);
    if (o.ok) {
      state.successes += 1;
      state.streak.clear();
      if (Number.isFinite(o.latencyMs) && o.latencyMs >= 0) {
        state.addLatency(o.latencyMs);
        const alpha = this.settings.ewmaAlpha;
        state.ewmaLatencyMs = state.ewmaLatencyMs === undefined ? o.latencyMs : alpha * o.latencyMs + (1 - alpha) * state.ewmaLatencyMs;
      }
    } else {
      state.windowFailures.add(caller);
      state.streak.add(caller);
      // The cool-down runs from the latest failure, so a failed half-open trial re-opens the breaker.
      state.lastFailureAtMs = Math.max(state.lastFailureAtMs, o.observedAtMs);
      state.lastErrorKind = o.errorKind || "unknown";
    }
  }

  /**
   * Health of `routeKey` as of `nowMs`; undefined for a route with no reported traffic. A read: it
   * does not count as a use of the route for eviction (only record() does), so replicas serving
   * different recommends still forget the same routes.
   */
  get(routeKey: string, nowMs: number): RouteHealth | undefined {
    const state = this.routes.peek(routeKey);
    if (!state) return undefined;
    // Failures only one caller saw are not in the rate: neither as failures nor as calls.
    const calls = state.successes + state.windowFailures.counted();
    const health: RouteHealth = {
      calls,
      successRate: calls === 0 ? 1 : state.successes / calls,
      latencySamples: state.latencies.size,
      breaker: "closed",
      consecutiveFailures: state.streak.total,
    };
    if (state.ewmaLatencyMs !== undefined) health.ewmaLatencyMs = state.ewmaLatencyMs;
    const p50 = state.latencyPercentile(0.5);
    if (p50 !== undefined) health.p50LatencyMs = p50;
    const p95 = state.latencyPercentile(0.95);
    if (p95 !== undefined) health.p95LatencyMs = p95;
    if (state.lastErrorKind !== undefined) {
      health.lastErrorKind = state.lastErrorKind;
      health.lastFailureAtMs = state.lastFailureAtMs;
    }
    if (state.streak.counted() >= this.settings.breakerFailures) {
      const retryAtMs = state.lastFailureAtMs + this.settings.breakerCooldownMs;
      health.breaker = nowMs < retryAtMs ? "open" : "half_open";
      health.breakerScope = "route";
      if (health.breaker === "open") health.retryAtMs = retryAtMs;
    }
    return health;
  }

  /**
   * Health of `routeKey` as `userId` sees it: the route's, with the caller's own breaker open when
   * its own last calls failed (its input refusals included) and the route's is not.
   */
  getFor(routeKey: string, userId: string, nowMs: number): RouteHealth | undefined {
    const health = this.get(routeKey, nowMs);
    if (health?.breaker === "open") return health;
    const own = this.callers.open(routeKey, userId, nowMs);
    if (!own) return health;
    return {
      ...(health ?? { calls: 0, successRate: 1, latencySamples: 0 }),
      breaker: "open",
      breakerScope: "caller",
      consecutiveFailures: own.consecutiveFailures,
      lastErrorKind: own.lastErrorKind,
      lastFailureAtMs: own.lastFailureAtMs,
      retryAtMs: own.retryAtMs,
    };
  }

  /**
   * Health of each of `routeKeys` as of `nowMs`, read once (for one request): routes without
   * traffic are absent. With `userId`, as that caller sees it (getFor). Like get(), it leaves the
   * eviction order alone.
   */
  snapshot(routeKeys: Iterable<string>, nowMs: number, userId?: string): Map<string, RouteHealth> {
    const health = new Map<string, RouteHealth>();
    for (const key of routeKeys) {
      if (health.has(key)) continue;
      const h = userId ? this.getFor(key, userId, nowMs) : this.get(key, nowMs);
      if (h) health.set(key, h);
    }
    return health;
  }
}
