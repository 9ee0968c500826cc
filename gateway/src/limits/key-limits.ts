// The limits one API key runs under, and where the limiter reads them: the key's own limits from its
// ledger record (set with `npm run keys -- limits`), which the auth cache keeps with the caller, over
// the configured defaults. Reading them off the caller costs no lookup per request; a change reaches
// the gateway when the auth cache asks the ledger about the key again.

export interface KeyLimits {
  /** Requests per second, sustained (fixed one-second windows). */
  requestsPerSecond: number;
  /** Most requests in any one second after a quiet spell (≥ requestsPerSecond); the extra refills every BURST_WINDOW_SECONDS. */
  burst: number;
  /** Most requests of the key in flight at once. */
  maxInFlight: number;
}

/** What the limiter knows of a caller: its key, and the key's own limits (only the fields its record sets). */
export interface LimitedCaller {
  keyId: string;
  limits?: Partial<KeyLimits>;
}

/** Where the limiter reads a key's limits; called once per request, so keep it in memory (or cache it). */
export interface KeyLimitsSource {
  limitsFor(caller: LimitedCaller): KeyLimits | Promise<KeyLimits>;
}

/** The window over which a key may spend `burst - requestsPerSecond` requests beyond its rate. */
export const BURST_WINDOW_SECONDS = 10;

/** A burst below the rate could never be spent: it is the rate then. */
const withBurst = (limits: KeyLimits): Readonly<KeyLimits> =>
  Object.freeze({ ...limits, burst: Math.max(limits.burst, limits.requestsPerSecond) });

/** Each key gets the limits of its record (`caller.limits`), field by field over `defaults`. */
export function keyRecordLimits(defaults: KeyLimits): KeyLimitsSource {
  const base = withBurst(defaults);
  // Merged once per cached caller (the auth cache hands out the same object until it refreshes).
  const merged = new WeakMap<LimitedCaller, Readonly<KeyLimits>>();
  return {
    limitsFor(caller) {
      const own = caller.limits;
      if (!own) return base;
      let limits = merged.get(caller);
      if (!limits) {
        limits = withBurst({
          requestsPerSecond: own.requestsPerSecond ?? base.requestsPerSecond,
          // A key given only a rate gets no more burst than the default allows beyond it.
          burst: own.burst ?? base.burst,
          maxInFlight: own.maxInFlight ?? base.maxInFlight,
        });
        merged.set(caller, limits);
      }
      return limits;
    },
  };
}
