// Where one request's time goes, hop by hop, from the spans the services export. The bench's
// traced pass starts the system a second time with OTLP/HTTP JSON export pointed at the receiver
// below (only then: exporting every span costs CPU, so the load figures are taken without it),
// drives one connection at a time, and reads each trace rooted at the gateway's SERVER span:
//
// - every span's own time is its duration minus its children's durations (each at most its own):
//   durations are exact (a monotonic clock), while the SDK stamps a span's start from Date.now(),
//   to the millisecond, so spans cannot be laid side by side below 1 ms;
// - own time is charged to a hop by who made the span: the gateway, executor, router, ledger or
//   catalog (SERVER and INTERNAL spans), the provider (the executor's provider CLIENT span and all
//   below it: the sandbox), publish (PRODUCER spans: JetStream publishes awaited before the answer),
//   and gRPC transport (a gRPC CLIENT span minus its SERVER child: (de)serialisation, loopback,
//   HTTP/2 and the callee's queue);
// - CONSUMER spans (the ledger applying a settlement, the router reading an outcome) and calls not
//   awaited (the executor's CompleteExecution) run beside the answer, not on its path, and are left out;
// - the shares are of the root span, summed over the traces: they add up to 100% when calls run one
//   after the other (calls made in parallel each count in full).
import { createServer } from "node:http";

const KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 };

function attributesOf(list) {
  return Object.fromEntries(
    (list ?? []).map(({ key, value }) => [key, value?.stringValue ?? value?.intValue ?? value?.boolValue ?? value?.doubleValue]),
  );
}

/** Nanoseconds as sent (a decimal string) to µs. */
const micros = (ns) => Number(BigInt(ns ?? 0) / 1000n);

/** An OTLP/HTTP (JSON) trace receiver on a free loopback port; keeps every span. */
export async function startOtlpReceiver() {
  const spans = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/v1/traces") {
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
          for (const rs of body.resourceSpans ?? []) {
            const service = String(attributesOf(rs.resource?.attributes)["service.name"] ?? "unknown");
            for (const ss of rs.scopeSpans ?? [])
              for (const s of ss.spans ?? [])
                spans.push({
                  service,
                  traceId: s.traceId,
                  spanId: s.spanId,
                  parentSpanId: s.parentSpanId ?? "",
                  name: s.name,
                  kind: s.kind,
                  startUs: micros(s.startTimeUnixNano),
                  endUs: micros(s.endTimeUnixNano),
                  attributes: attributesOf(s.attributes),
                });
          }
        } catch {
          // A malformed export is dropped; the traces it carried are then incomplete and skipped.
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${server.address().port}`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The environment that makes every service export its spans to `endpoint`, soon and without dropping any. */
export function tracingEnv(endpoint) {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_BSP_SCHEDULE_DELAY: "200",
    OTEL_BSP_MAX_QUEUE_SIZE: "100000",
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "2000",
  };
}

/** The hop a span's own time is charged to. */
function hopOf(span, parent) {
  if (span.kind === KIND.PRODUCER) return "publish (NATS)";
  if (span.kind === KIND.CLIENT && /^provider /.test(span.name)) return "provider (sandbox)";
  if (span.kind === KIND.CLIENT && span.attributes["rpc.system"] === "grpc") return "gRPC transport";
  if (parent && hopOf(parent) === "provider (sandbox)") return "provider (sandbox)";
  return span.service;
}

/**
 * The time a span spent in its children: the sum of their durations when they ran one after the
 * other (exact), or, when they overlapped (the sum is more than the span lasted), the length of the
 * union of their intervals (exact to the 1 ms of the start stamps).
 */
function childTime(kids, duration) {
  const sum = kids.reduce((total, k) => total + (k.endUs - k.startUs), 0);
  if (sum <= duration) return sum;
  let total = 0;
  let open;
  let close;
  for (const k of [...kids].sort((a, b) => a.startUs - b.startUs)) {
    if (close === undefined || k.startUs > close) {
      if (close !== undefined) total += close - open;
      open = k.startUs;
      close = k.endUs;
    } else close = Math.max(close, k.endUs);
  }
  if (close !== undefined) total += close - open;
  return Math.min(duration, total);
}

/**
 * Per-hop figures of the traces whose root (the gateway's SERVER span) matches `isRoot`: mean ms
 * per request and share of the root, per hop, and for the ledger and gRPC transport, per method.
 */
export function analyzeHops(spans, isRoot) {
  const byTrace = new Map();
  for (const s of spans) {
    let list = byTrace.get(s.traceId);
    if (!list) byTrace.set(s.traceId, (list = []));
    list.push(s);
  }
  const hops = new Map();
  const methods = new Map();
  const durations = [];
  let rootUs = 0;
  let traces = 0;
  for (const list of byTrace.values()) {
    const root = list.find((s) => s.service === "gateway" && s.kind === KIND.SERVER && isRoot(s));
    if (!root) continue;
    traces++;
    rootUs += root.endUs - root.startUs;
    durations.push([root.endUs - root.startUs, list, root]);
    const children = new Map();
    for (const s of list) {
      let c = children.get(s.parentSpanId);
      if (!c) children.set(s.parentSpanId, (c = []));
      c.push(s);
    }
    const visit = (span, parent) => {
      const duration = span.endUs - span.startUs;
      // Beside the answer, not on its path: consumers (the ledger's capture, the router's outcome), and
      // calls not awaited (a child ending more than the 1 ms of start-stamp error after its parent).
      const kids = (children.get(span.spanId) ?? []).filter((k) => k.kind !== KIND.CONSUMER && k.endUs <= span.endUs + 1_000);
      const own = Math.max(0, duration - childTime(kids, duration));
      const hop = hopOf(span, parent);
      hops.set(hop, (hops.get(hop) ?? 0) + own);
      // The detail lines: each ledger RPC and each publish in full, and the transport of each gRPC method.
      const method = String(span.attributes["rpc.method"] ?? span.name.split("/").pop());
      const what =
        span.kind === KIND.SERVER && span.service === "ledger"
          ? `ledger ${method}`
          : span.kind === KIND.PRODUCER
            ? span.name
            : hop === "gRPC transport"
              ? `gRPC transport ${span.service} → ${method}`
              : undefined;
      if (what) methods.set(what, (methods.get(what) ?? 0) + (hop === "gRPC transport" ? own : duration));
      for (const k of kids) visit(k, span);
    };
    visit(root, undefined);
  }
  const rows = [...hops]
    .map(([hop, us]) => ({ hop, ms: traces ? us / traces / 1000 : 0, share: rootUs ? us / rootUs : 0 }))
    .sort((a, b) => b.share - a.share);
  const detail = [...methods]
    .map(([what, us]) => ({ what, ms: traces ? us / traces / 1000 : 0, share: rootUs ? us / rootUs : 0 }))
    .sort((a, b) => b.ms - a.ms);
  // The trace of median length, span by span (ms from the root's start), for a reader to see the shape.
  durations.sort((a, b) => a[0] - b[0]);
  const [, medianList, medianRoot] = durations[Math.floor(durations.length / 2)] ?? [];
  const example = medianList
    ?.filter((s) => s.kind !== KIND.CONSUMER)
    .sort((a, b) => a.startUs - b.startUs)
    .map((s) => ({
      service: s.service,
      kind: Object.keys(KIND).find((k) => KIND[k] === s.kind),
      name: s.name,
      startMs: (s.startUs - medianRoot.startUs) / 1000,
      ms: (s.endUs - s.startUs) / 1000,
    }));
  return { traces, meanMs: traces ? rootUs / traces / 1000 : 0, hops: rows, detail, example };
}

export function formatHops(label, a) {
  if (!a.traces) return `${label}: no complete traces`;
  const lines = [
    `${label}: ${a.traces} traces, ${a.meanMs.toFixed(2)} ms mean inside the gateway's SERVER span (detail lines: a ledger RPC or a publish whole, callees included)`,
  ];
  for (const r of a.hops) lines.push(`  ${r.hop.padEnd(20)} ${r.ms.toFixed(3).padStart(7)} ms  ${(r.share * 100).toFixed(1).padStart(5)}%`);
  for (const d of a.detail) lines.push(`    (${d.what}: ${d.ms.toFixed(3)} ms, ${(d.share * 100).toFixed(1)}%)`);
  return lines.join("\n");
}
