// The limits one API key runs under, and where the limiter reads them. Today every key gets the
// configured defaults; per-key overrides belong on the ledger's API key record (set with the keys
// CLI), read through the same interface, so the limiter does not change when they arrive.

export interface KeyLimits {
  /** Requests per second, sustained (fixed one-second windows). */
  requestsPerSecond: number;
  /** Most requests in any one second after a quiet spell (≥ requestsPerSecond); the extra refills every BURST_WINDOW_SECONDS. */
  burst: number;
  /** Most requests of the key in flight at once. */
  maxInFlight: number;
}

/** Where the limiter reads a key's limits; called once per request, so keep it in memory (or cache it). */
export interface KeyLimitsSource {
  limitsFor(keyId: string): KeyLimits | Promise<KeyLimits>;
}

/** The window over which a key may spend `burst - requestsPerSecond` requests beyond its rate. */
export const BURST_WINDOW_SECONDS = 10;

/** Every key gets `defaults`. */
export function configuredLimits(defaults: KeyLimits): KeyLimitsSource {
  const limits = Object.freeze({ ...defaults, burst: Math.max(defaults.burst, defaults.requestsPerSecond) });
  return { limitsFor: () => limits };
}
