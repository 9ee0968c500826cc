// A minimal OTLP/HTTP trace receiver (JSON encoding) that keeps every span it is sent, so a test
// can assert what the real processes exported.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One received span, flattened with the service that sent it. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  /** Start, in µs since the epoch (the SDK stamps it to the millisecond): orders spans, never times them. */
  startUs: number;
  attributes: Record<string, unknown>;
}

export const SPAN_KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };

function attributes(list: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries(
    (list ?? []).map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue]),
  );
}

export interface OtlpReceiver {
  /** Base URL to put in OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  /** The environment that makes every service of a started system export its spans here, at once (JSON, 100 ms batches). */
  exporterEnv: Record<string, string>;
  spans: ReceivedSpan[];
  /** Polls until `predicate` holds for the received spans (bounded), then returns them. */
  waitFor(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/v1/traces") {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
        for (const rs of body.resourceSpans ?? []) {
          const service = String(attributes(rs.resource?.attributes)["service.name"] ?? "unknown");
          for (const ss of rs.scopeSpans ?? []) {
            for (const s of ss.spans ?? []) {
              spans.push({
                service,
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId ?? "",
                name: s.name,
                kind: s.kind,
                startUs: Number(BigInt(s.startTimeUnixNano ?? 0) / 1000n),
                attributes: attributes(s.attributes),
              });
            }
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    exporterEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_BSP_SCHEDULE_DELAY: "100" },
    spans,
    async waitFor(predicate, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      while (!predicate(spans)) {
        if (Date.now() > until)
          throw new Error(`spans did not arrive in ${timeoutMs} ms; got: ${spans.map((s) => `${s.service}:${s.name}`).join(", ")}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return spans;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
