// The time a vendor gets to finish one request. Work a vendor does after we stopped waiting is still
// billed to our key while the caller's hold is released, so adapters ask each vendor, through its own
// timeout parameter, to give up before we do: our provider deadline less the time its answer takes
// to reach us.

/** PROVIDER_TIMEOUT_MS's default, for a context built without one (adapter tests). */
const DEFAULT_PROVIDER_TIMEOUT_MS = 15_000;
/** Time kept back for the vendor's answer to travel to us and be read. */
const ANSWER_MARGIN_MS = 1_000;

/** Milliseconds the vendor may work on one request (at least one second). */
export function vendorDeadlineMs(ctx: { timeoutMs?: number }): number {
  return Math.max(1_000, (ctx.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS) - ANSWER_MARGIN_MS);
}

/** The same in whole seconds, rounded down, for vendors that take seconds (at least one). */
export function vendorDeadlineSeconds(ctx: { timeoutMs?: number }): number {
  return Math.max(1, Math.floor(vendorDeadlineMs(ctx) / 1_000));
}
