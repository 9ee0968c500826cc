// One abusive API key beside many well-behaved ones. The good keys each send `goodRate` requests
// a second on one connection (inside their per-key limit); the abusive key runs a closed loop on
// `abusiveConns` connections, as fast as the gateway answers it, ignoring 429s and Retry-After.
// Measures the good keys alone (unloaded), then beside the abusive key (loaded): their latency
// should barely move while the abusive key is answered 429.
import { createHistogram, summarize } from "./histogram.mjs";
import { rootRequire } from "./paths.mjs";

const autocannon = rootRequire("autocannon");

/** Runs autocannon once; each client gets the bearer of `keys[i % keys.length]`. Resolves { result, hist }. */
function load({ url, body, keys, connections, connectionRate, durationS, track }) {
  const hist = createHistogram();
  let next = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        method: "POST",
        body,
        headers: { "content-type": "application/json" },
        connections,
        ...(connectionRate ? { connectionRate } : {}),
        duration: durationS,
        pipelining: 1,
        timeout: 10,
        setupClient: (client) =>
          client.setHeaders({ "content-type": "application/json", authorization: `Bearer ${keys[next++ % keys.length]}` }),
      },
      (err, result) => (err ? reject(err) : resolve({ result, hist })),
    );
    // Every response counts: a 503 or 429 to a good key is a failure to serve it, and its time too.
    instance.on("response", (_client, _status, _bytes, ms) => hist.record(ms * 1000));
    track?.(instance);
  });
}

function stats({ result, hist }) {
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

/**
 * @param {{ url: string, body: string, goodKeys: string[], abusiveKey: string, goodRate: number,
 *   abusiveConns: number, durationS: number, warmupS: number, onMeasureStart?: () => void, track?: (instance) => void }} o
 * Resolves { unloaded, loaded, abusive } (each like a scenario's figures) and the p99 ratio loaded/unloaded.
 */
export async function runAbusiveKey(o) {
  const good = (durationS) =>
    load({
      url: o.url,
      body: o.body,
      keys: o.goodKeys,
      connections: o.goodKeys.length,
      connectionRate: o.goodRate,
      durationS,
      track: o.track,
    });
  if (o.warmupS > 0) await good(o.warmupS);
  o.onMeasureStart?.();
  const unloaded = stats(await good(o.durationS));
  const [loadedRun, abusiveRun] = await Promise.all([
    good(o.durationS),
    load({ url: o.url, body: o.body, keys: [o.abusiveKey], connections: o.abusiveConns, durationS: o.durationS, track: o.track }),
  ]);
  const loaded = stats(loadedRun);
  const abusive = stats(abusiveRun);
  const p99Ratio = unloaded.latency.p99 ? loaded.latency.p99 / unloaded.latency.p99 : null;
  return { unloaded, loaded, abusive, p99Ratio };
}
