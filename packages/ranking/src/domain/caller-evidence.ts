// Who saw a route fail. One caller can provoke failures (a timeout by asking for more than the vendor
// can do in time, a refusal by sending bad input), so a route's health counts a failure against it for
// everyone only as far as other callers saw failures too; what one caller alone provoked stays that
// caller's (CallerBreakers), and may block that caller, never the others.
import { LruMap } from "./lru";

/** The caller of outcomes that no user made: the platform's own evidence (a probe), counted in full. */
export const PLATFORM_CALLER = "";

/**
 * Failures per caller in some span of outcomes (a success window, a run of consecutive failures).
 * `counted()` is the balanced evidence: the platform's failures in full, and each caller's at most as
 * many as the caller with the next most failures. One caller alone counts 0, however many it provoked;
 * callers failing alike (a vendor down for everyone) count in full.
 */
export class CallerTally {
  private readonly byCaller = new Map<string, number>();
  private platform = 0;

  /** Failures recorded, counted or not. */
  total = 0;

  add(caller: string): void {
    this.total += 1;
    if (caller === PLATFORM_CALLER) this.platform += 1;
    else this.byCaller.set(caller, (this.byCaller.get(caller) ?? 0) + 1);
  }

  remove(caller: string): void {
    this.total -= 1;
    if (caller === PLATFORM_CALLER) {
      this.platform -= 1;
      return;
    }
    const left = (this.byCaller.get(caller) ?? 1) - 1;
    if (left > 0) this.byCaller.set(caller, left);
    else this.byCaller.delete(caller);
  }

  clear(): void {
    this.byCaller.clear();
    this.platform = 0;
    this.total = 0;
  }

  /** Failures that count against the route for everyone (see the class comment). */
  counted(): number {
    let first = 0;
    let second = 0;
    for (const n of this.byCaller.values()) {
      if (n > first) [first, second] = [n, first];
      else if (n > second) second = n;
    }
    return this.total - (first - second);
  }
}

/** One caller's run of consecutive failures on one route. */
interface CallerRun {
  failures: number;
  lastFailureAtMs: number;
  lastErrorKind: string;
}

/** A caller's own breaker on a route: open after its own consecutive failures, whatever their blame. */
export interface CallerBreaker {
  consecutiveFailures: number;
  lastErrorKind: string;
  lastFailureAtMs: number;
  /** When it half-opens for this caller, ms since the epoch. */
  retryAtMs: number;
}

/**
 * Per (route, caller): consecutive failures, including those the vendor blamed on the caller's input.
 * Bounded (the least recently reported pair is forgotten first); reads never change the order, so
 * replicas fed the same outcomes agree.
 */
export class CallerBreakers {
  private readonly runs: LruMap<string, CallerRun>;

  constructor(private readonly settings: { breakerFailures: number; breakerCooldownMs: number; maxCallerRoutes: number }) {
    this.runs = new LruMap(settings.maxCallerRoutes);
  }

  record(routeKey: string, caller: string, ok: boolean, errorKind: string, observedAtMs: number): void {
    if (caller === PLATFORM_CALLER) return;
    const key = `${routeKey}\u0000${caller}`;
    if (ok) {
      // A success ends the caller's run; nothing is kept for a caller whose calls work.
      if (this.runs.peek(key)) this.runs.set(key, { failures: 0, lastFailureAtMs: 0, lastErrorKind: "" });
      return;
    }
    const run = this.runs.get(key) ?? { failures: 0, lastFailureAtMs: 0, lastErrorKind: "" };
    this.runs.set(key, {
      failures: run.failures + 1,
      lastFailureAtMs: Math.max(run.lastFailureAtMs, observedAtMs),
      lastErrorKind: errorKind || "unknown",
    });
  }

  /** The caller's open breaker on the route as of `nowMs`, if it is open. */
  open(routeKey: string, caller: string, nowMs: number): CallerBreaker | undefined {
    if (caller === PLATFORM_CALLER) return undefined;
    const run = this.runs.peek(`${routeKey}\u0000${caller}`);
    if (!run || run.failures < this.settings.breakerFailures) return undefined;
    const retryAtMs = run.lastFailureAtMs + this.settings.breakerCooldownMs;
    if (nowMs >= retryAtMs) return undefined;
    return { consecutiveFailures: run.failures, lastErrorKind: run.lastErrorKind, lastFailureAtMs: run.lastFailureAtMs, retryAtMs };
  }
}
