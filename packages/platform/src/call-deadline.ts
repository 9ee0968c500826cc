// The deadline of one call made on behalf of a caller, the same in every service: the call's own
// limit, cut to what the caller has left, and at least 1 ms, so a spent budget still yields a
// positive deadline that fails fast rather than none.

/** `limitMs` capped by `remainingMs` (Infinity without a caller deadline), at least 1 ms. */
export function callDeadlineMs(limitMs: number, remainingMs: number): number {
  return Math.max(1, Math.min(limitMs, remainingMs));
}
