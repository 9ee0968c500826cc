// Closed-loop gRPC load: `concurrency` calls always in flight on one client (one channel, as the
// gateway holds one per backend), each worker issuing its next call as soon as the previous one
// ends, for a fixed time after a discarded warm-up. Latencies go into a microsecond histogram.
import { createHistogram, summarize } from "./histogram.mjs";

async function loop(call, concurrency, durationS, hist, counters, isStopped) {
  const end = performance.now() + durationS * 1000;
  const worker = async () => {
    while (performance.now() < end && !isStopped()) {
      const t0 = performance.now();
      try {
        await call();
        const us = (performance.now() - t0) * 1000;
        hist?.record(us);
        counters.ok++;
      } catch (err) {
        counters.errors++;
        const code = String(err?.code ?? "unknown");
        counters.codes[code] = (counters.codes[code] ?? 0) + 1;
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return (performance.now() - t0) / 1000;
}

/**
 * @param {{ call: () => Promise<unknown>, concurrency: number, durationS: number, warmupS: number,
 *   onMeasureStart?: () => void, isStopped?: () => boolean }} o
 */
export async function runGrpcLoad(o) {
  const isStopped = o.isStopped ?? (() => false);
  if (o.warmupS > 0) await loop(o.call, o.concurrency, o.warmupS, undefined, { ok: 0, errors: 0, codes: {} }, isStopped);
  o.onMeasureStart?.();
  const hist = createHistogram();
  const counters = { ok: 0, errors: 0, codes: {} };
  const durationS = await loop(o.call, o.concurrency, o.durationS, hist, counters, isStopped);
  const requests = counters.ok + counters.errors;
  return {
    requests,
    durationS,
    rps: durationS > 0 ? requests / durationS : 0,
    latency: summarize(hist),
    errors: counters.errors,
    timeouts: counters.codes["4"] ?? 0, // DEADLINE_EXCEEDED
    non2xx: 0,
    statusCodes: { OK: counters.ok, ...counters.codes },
  };
}
