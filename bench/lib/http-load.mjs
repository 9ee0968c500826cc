// Closed-loop HTTP load with autocannon's programmatic API: a discarded warm-up run, then the
// measured run. autocannon's own latency histogram has 1 ms resolution, so every 2xx response
// time is also recorded here in microseconds (its 'response' event carries a float in ms).
import { createHistogram, summarize } from "./histogram.mjs";
import { rootRequire } from "./paths.mjs";

const autocannon = rootRequire("autocannon");

/** Runs autocannon once; resolves its result. `onResponse(status, ms)` sees every response. */
function runOnce(opts, onResponse, track) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ ...opts, pipelining: 1, timeout: 10 }, (err, result) => (err ? reject(err) : resolve(result)));
    if (onResponse) instance.on("response", (_client, status, _bytes, ms) => onResponse(status, ms));
    track?.(instance);
  });
}

/**
 * @param {{ url: string, method?: string, headers?: Record<string,string>, body?: string,
 *   connections: number, durationS: number, warmupS: number, onMeasureStart?: () => void,
 *   track?: (instance) => void, freshHeaders?: () => Record<string,string>, overallRate?: number, measures?: (status: number) => boolean }} o
 * `measures(status)`: which answers the latency counts (default: 2xx). `onMeasureStart` runs between the warm-up and the measured run; `track` receives each
 * autocannon instance so an interrupt can stop it.
 */
export async function runHttpLoad(o) {
  const base = { url: o.url, method: o.method ?? "GET", headers: o.headers ?? {}, body: o.body, connections: o.connections };
  // An open rate (requests per second over all connections) instead of a closed loop, when given.
  if (o.overallRate) base.overallRate = o.overallRate;
  // Headers made anew for every request (an execute's Idempotency-Key, as the SDK sends one per call).
  if (o.freshHeaders) base.requests = [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, ...o.freshHeaders() } }) }];
  if (o.warmupS > 0) await runOnce({ ...base, duration: o.warmupS }, undefined, o.track);
  o.onMeasureStart?.();
  const hist = createHistogram();
  const result = await runOnce(
    { ...base, duration: o.durationS },
    (status, ms) => {
      if (o.measures ? o.measures(status) : status >= 200 && status < 300) hist.record(ms * 1000);
    },
    o.track,
  );
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
  return {
    requests: result.requests.total,
    durationS: result.duration,
    rps: result.duration > 0 ? result.requests.total / result.duration : 0,
    latency: summarize(hist),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
  };
}
