// Latency histogram in microseconds: hdr-histogram-js (installed with autocannon) when it loads,
// else a plain array with exact percentiles. Both expose the same small interface.
import { rootRequire } from "./paths.mjs";

function loadHdr() {
  try {
    return rootRequire("hdr-histogram-js");
  } catch {
    return undefined;
  }
}

const hdr = loadHdr();

/** A histogram of latencies recorded in microseconds; percentiles are returned in milliseconds. */
export function createHistogram() {
  if (hdr) {
    const h = hdr.build({
      lowestDiscernibleValue: 1,
      highestTrackableValue: 120_000_000, // 120 s: longer than any request deadline
      numberOfSignificantValueDigits: 3,
      autoResize: true,
      useWebAssembly: false,
    });
    return {
      kind: "hdr",
      record: (us) => h.recordValue(Math.max(1, Math.round(us))),
      get count() {
        return h.totalCount;
      },
      percentileMs: (p) => (h.totalCount ? h.getValueAtPercentile(p) / 1000 : null),
      meanMs: () => (h.totalCount ? h.mean / 1000 : null),
      maxMs: () => (h.totalCount ? h.maxValue / 1000 : null),
    };
  }
  const values = [];
  let sorted = true;
  const sort = () => {
    if (!sorted) values.sort((a, b) => a - b);
    sorted = true;
  };
  return {
    kind: "array",
    record: (us) => {
      values.push(us);
      sorted = false;
    },
    get count() {
      return values.length;
    },
    percentileMs: (p) => {
      if (!values.length) return null;
      sort();
      return values[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] / 1000;
    },
    meanMs: () => (values.length ? values.reduce((a, b) => a + b, 0) / values.length / 1000 : null),
    maxMs: () => {
      if (!values.length) return null;
      sort();
      return values[values.length - 1] / 1000;
    },
  };
}

/** The latency summary every scenario reports (ms). */
export function summarize(hist) {
  return {
    p50: hist.percentileMs(50),
    p90: hist.percentileMs(90),
    p99: hist.percentileMs(99),
    p999: hist.percentileMs(99.9),
    max: hist.maxMs(),
    mean: hist.meanMs(),
    samples: hist.count,
  };
}
