// A route's vendor quota as recommend sees it: what is left of the plan every user shares, and of the
// caller's share, in the current window. A route running out is ranked below its alternatives before
// the vendor refuses anyone (the executor ranks with the same answer); one whose quota or whose
// caller's share is spent cannot run now (VENDOR_QUOTA_EXHAUSTED: the executor answers 429 for it).

/** Spent of one route's quota this window (from the shared counters the executor takes from). */
export interface QuotaUse {
  /** Requests the vendor plan allows per window, for all users together. */
  requests: number;
  /** Requests one user may spend per window. */
  perUserRequests: number;
  usedTotal: number;
  usedByUser: number;
  /** When the window resets, ms since the epoch. */
  resetAtMs: number;
}

/**
 * ok: room left. running_out: at least `lowAt` of the plan is spent (ranked below routes with room).
 * share_used: the caller's share is spent. exhausted: the plan's whole quota is spent.
 */
export type QuotaStanding = "ok" | "running_out" | "share_used" | "exhausted";

/** Where a route stands with its quota; `lowAt` is the spent fraction from which it is running out (e.g. 0.8). */
export function quotaStanding(use: QuotaUse, lowAt: number): QuotaStanding {
  if (use.usedTotal >= use.requests) return "exhausted";
  if (use.usedByUser >= use.perUserRequests) return "share_used";
  return use.usedTotal >= use.requests * lowAt ? "running_out" : "ok";
}

/** The step that lifts a spent quota, for nextActions. */
export function quotaAction(routeKey: string, use: QuotaUse, standing: QuotaStanding): string {
  const resetAt = new Date(use.resetAtMs).toISOString();
  return standing === "share_used"
    ? `You have used your share (${use.perUserRequests} requests) of the vendor quota of route ${routeKey} until ${resetAt}; execute another route meanwhile`
    : `The vendor quota of route ${routeKey} (${use.requests} requests, shared by every user) is used up until ${resetAt}; execute another route meanwhile`;
}

/** A reason line about the quota, for a route that has one. */
export function quotaReason(use: QuotaUse, standing: QuotaStanding): string {
  const left = Math.max(0, use.requests - use.usedTotal);
  const yours = Math.max(0, use.perUserRequests - use.usedByUser);
  const tail = standing === "running_out" ? "; running out: ranked below routes with room" : "";
  return `vendor quota: ${left} of ${use.requests} requests left for everyone, ${yours} of your ${use.perUserRequests}, until ${new Date(use.resetAtMs).toISOString()}${tail}`;
}
