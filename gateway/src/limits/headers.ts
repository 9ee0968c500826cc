// The IETF RateLimit header fields, as draft-ietf-httpapi-ratelimit-headers (revision 11) writes
// them: `RateLimit-Policy` lists the quota policies ("name";q=<quota>;w=<window s>, with
// qu="concurrent-requests" for the in-flight cap) and `RateLimit` what is left of each
// ("name";r=<remaining>;t=<s until the window resets>). The older RateLimit-Limit/-Remaining/-Reset
// trio is not sent: the draft replaced it. Retry-After is sent on every refusal as well, and is never
// earlier than the end of the window (as the draft asks).
import type { Response } from "express";
import { BURST_WINDOW_SECONDS, type KeyLimits } from "./key-limits";

/** Whole seconds until `ms` has passed, at least 1 (rounding down would invite a retry too early). */
export function secondsUntil(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** RateLimit-Policy of a key: its rate, its burst allowance (when any) and its in-flight cap. */
export function keyPolicy(limits: KeyLimits): string {
  const policies = [`"rate";q=${limits.requestsPerSecond};w=1`];
  if (limits.burst > limits.requestsPerSecond)
    policies.push(`"burst";q=${limits.burst - limits.requestsPerSecond};w=${BURST_WINDOW_SECONDS}`);
  policies.push(`"in-flight";q=${limits.maxInFlight};qu="concurrent-requests"`);
  return policies.join(", ");
}

export interface KeyState {
  /** Left of the rate's current one-second window (0 while the burst allowance is being spent). */
  rateRemaining: number;
  rateResetMs: number;
  /** Free in-flight slots, when known (a request refused for its rate never takes one). */
  inFlightRemaining?: number;
}

export function setKeyHeaders(res: Response, limits: KeyLimits, state: KeyState): void {
  res.setHeader("RateLimit-Policy", keyPolicy(limits));
  const items = [`"rate";r=${state.rateRemaining};t=${secondsUntil(state.rateResetMs)}`];
  if (state.inFlightRemaining !== undefined) items.push(`"in-flight";r=${Math.max(0, state.inFlightRemaining)}`);
  res.setHeader("RateLimit", items.join(", "));
}

/** Headers of a 429 to a client IP that sends requests without a valid key. */
export function setUnauthenticatedHeaders(res: Response, perMinute: number, resetMs: number): void {
  res.setHeader("RateLimit-Policy", `"unauthenticated";q=${perMinute};w=60`);
  res.setHeader("RateLimit", `"unauthenticated";r=0;t=${secondsUntil(resetMs)}`);
  res.setHeader("Retry-After", String(secondsUntil(resetMs)));
}
