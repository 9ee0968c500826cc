// Runs an adapter's multi-request flow (ProviderAdapter.flows) for one attempt: every request goes over
// the route's rail, each within the provider timeout and all within the attempt's deadline, and the
// runner remembers whether a request that makes the vendor act was accepted, so a later failure is
// never taken for one where nothing happened. Direct rail only: a paid rail would pay each request,
// and an attempt books one payment, so a flow on a paid rail fails closed before anything is sent.
import type { ProviderResult, VendorCalls } from "./provider-port";
import { RailError, type Rail } from "./rail-port";

export interface FlowLimits {
  /** The attempt's deadline for the whole flow, in ms from now. */
  deadlineMs: number;
  /** The deadline of each request (the provider timeout), in ms. */
  requestTimeoutMs: number;
}

export type FlowOutcome = { ok: true; value: ProviderResult } | { ok: false; err: unknown; vendorActed: boolean };

/** Runs `flow` over `rail`; never throws. */
export async function runFlow(
  flow: (vendor: VendorCalls) => Promise<ProviderResult>,
  rail: Rail,
  limits: FlowLimits,
): Promise<FlowOutcome> {
  if (rail.network !== "direct") {
    const err = new RailError(
      "payment_rejected",
      "multi_request_flow_on_paid_rail",
      `a multi-request vendor flow runs on direct routes only, not on ${rail.network}: each of its requests would be paid`,
    );
    return { ok: false, err, vendorActed: false };
  }
  const endsAt = Date.now() + limits.deadlineMs;
  const deadline = AbortSignal.timeout(Math.max(limits.deadlineMs, 1));
  let vendorActed = false;
  const remainingMs = () => Math.max(endsAt - Date.now(), 0);
  const timedOut = () => new RailError("timeout", "deadline_exceeded", "the attempt's deadline passed during the vendor flow");
  const vendor: VendorCalls = {
    remainingMs,
    async send(request, opts = {}) {
      if (deadline.aborted) throw timedOut();
      const signal = AbortSignal.any([deadline, AbortSignal.timeout(Math.min(limits.requestTimeoutMs, remainingMs()) || 1)]);
      const res = await rail.send(request, { signal });
      if (opts.acts && res.status >= 200 && res.status < 300) vendorActed = true;
      return res;
    },
    pause: (ms) =>
      new Promise<void>((resolve, reject) => {
        if (ms >= remainingMs()) return reject(timedOut());
        const timer = setTimeout(() => {
          deadline.removeEventListener("abort", stop);
          resolve();
        }, ms);
        const stop = () => {
          clearTimeout(timer);
          reject(timedOut());
        };
        deadline.addEventListener("abort", stop, { once: true });
      }),
  };
  try {
    return { ok: true, value: await flow(vendor) };
  } catch (err) {
    return { ok: false, err, vendorActed };
  }
}
