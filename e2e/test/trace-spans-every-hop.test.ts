// One REST request is one trace across real processes: the gateway's SERVER span, and the gRPC
// CLIENT/SERVER spans of each hop it causes, with correct parent links. Health checks are not traced.
import { SPAN_KIND, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "./support/otlp-receiver";
import { randomBytes } from "node:crypto";
import { startSystem, type RunningSystem } from "./support/system";

/** A W3C traceparent for a sampled trace the test owns. */
function newTraceparent() {
  const traceId = randomBytes(16).toString("hex");
  const spanId = randomBytes(8).toString("hex");
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

function childrenOf(spans: ReceivedSpan[], parent: ReceivedSpan): ReceivedSpan[] {
  return spans.filter((s) => s.traceId === parent.traceId && s.parentSpanId === parent.spanId);
}

describe("traces across the running system", () => {
  let otlp: OtlpReceiver;
  let sys: RunningSystem;
  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    sys = await startSystem(otlp.exporterEnv);
  }, 60_000);
  afterAll(async () => {
    await sys?.stop();
    await otlp?.close();
  });

  it("GET /domains/email: gateway SERVER → gateway gRPC CLIENT → catalog gRPC SERVER, one trace id", async () => {
    // The client starts the trace, as an instrumented agent would, and the test follows only its own. A page
    // the gateway has not read yet (the domain list is read ahead for readiness and answered from memory).
    const { traceId, spanId: clientSpanId, traceparent } = newTraceparent();
    const res = await fetch(`${sys.baseUrl}/domains/email`, { headers: { traceparent } });
    expect(res.status).toBe(200);
    const isCatalogServer = (s: ReceivedSpan) => s.traceId === traceId && s.service === "catalog" && s.kind === SPAN_KIND.SERVER;
    const isGatewayServer = (s: ReceivedSpan) => s.traceId === traceId && s.service === "gateway" && s.kind === SPAN_KIND.SERVER;
    const spans = await otlp.waitFor((all) => all.some(isCatalogServer) && all.some(isGatewayServer));
    const catalogServer = spans.find(isCatalogServer)!;
    expect(catalogServer.name).toMatch(/GetDomain$/);
    const trace = spans.filter((s) => s.traceId === traceId);

    const gatewayServer = trace.find((s) => s.service === "gateway" && s.kind === SPAN_KIND.SERVER)!;
    expect(gatewayServer).toBeDefined();
    expect(gatewayServer.parentSpanId).toBe(clientSpanId);
    const gatewayClient = trace.find((s) => s.service === "gateway" && s.kind === SPAN_KIND.CLIENT && s.name.endsWith("GetDomain"))!;
    expect(gatewayClient).toBeDefined();
    expect(catalogServer.parentSpanId).toBe(gatewayClient.spanId);
    // The client span sits under the request (directly, or under express's handler spans).
    const ancestors = new Set<string>();
    for (let s: ReceivedSpan | undefined = gatewayClient; s; s = trace.find((p) => p.spanId === s!.parentSpanId)) ancestors.add(s.spanId);
    expect(ancestors.has(gatewayServer.spanId)).toBe(true);
    expect(childrenOf(trace, gatewayServer).length).toBeGreaterThan(0);
    expect(catalogServer.attributes).toMatchObject({ "rpc.system": "grpc", "rpc.method": "GetDomain" });
  });

  it("POST execute email.send: one trace across gateway, executor, ledger (gRPC and the JetStream capture) and router (the outcome)", async () => {
    const auth = { authorization: `Bearer ${sys.apiKey}`, "content-type": "application/json" };
    const init = await fetch(`${sys.baseUrl}/dev/init`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ userId: "dev-user", balanceCredits: 100 }),
    });
    expect(init.status).toBe(200);

    const { traceId, traceparent } = newTraceparent();
    const res = await fetch(`${sys.baseUrl}/domains/email/capabilities/send/execute`, {
      method: "POST",
      headers: { ...auth, traceparent },
      body: JSON.stringify({ to: "ada@example.com", subject: "Trace me", text: "hello" }),
    });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ success: true, status: "sent" });

    const inTrace = (service: string, kind: number, name: RegExp) => (s: ReceivedSpan) =>
      s.traceId === traceId && s.service === service && s.kind === kind && name.test(s.name);
    const want = {
      gatewayServer: inTrace("gateway", SPAN_KIND.SERVER, /.*/),
      executorServer: inTrace("executor", SPAN_KIND.SERVER, /ExecutorService\/Execute$/),
      ledgerHold: inTrace("ledger", SPAN_KIND.SERVER, /LedgerService\/HoldCredits$/),
      providerCall: inTrace("executor", SPAN_KIND.CLIENT, /^provider email\.send\./),
      settledPublish: inTrace("executor", SPAN_KIND.PRODUCER, /^executions\.settled publish$/),
      settledProcess: inTrace("ledger", SPAN_KIND.CONSUMER, /^executions\.settled process$/),
      outcomePublish: inTrace("executor", SPAN_KIND.PRODUCER, /^executions\.outcome publish$/),
      outcomeProcess: inTrace("router", SPAN_KIND.CONSUMER, /^executions\.outcome process$/),
    };
    const spans = await otlp.waitFor((all) => Object.values(want).every((p) => all.some(p)));
    const get = (p: (s: ReceivedSpan) => boolean) => spans.find(p)!;

    // Message hops: each consumer span is the child of the producer span that sent it.
    expect(get(want.settledProcess).parentSpanId).toBe(get(want.settledPublish).spanId);
    expect(get(want.outcomeProcess).parentSpanId).toBe(get(want.outcomePublish).spanId);
    // The provider call carries the route, the rail and the price.
    expect(get(want.providerCall).attributes).toMatchObject({
      "agentic.capability.key": "email.send",
      "agentic.route.key": body.routeKey,
      "agentic.settlement.rail": "api_key",
      "agentic.credits.amount": body.creditsCharged,
    });
    // Every span of the request descends from the gateway's SERVER span.
    const trace = spans.filter((s) => s.traceId === traceId);
    const root = get(want.gatewayServer);
    for (const span of Object.values(want).map(get)) {
      let cursor: ReceivedSpan | undefined = span;
      while (cursor && cursor.spanId !== root.spanId) cursor = trace.find((p) => p.spanId === cursor!.parentSpanId);
      expect(cursor?.spanId).toBe(root.spanId);
    }
    // The usage item points back to this trace.
    const usage = (await (await fetch(`${sys.baseUrl}/usage?limit=5`, { headers: auth })).json()) as any;
    expect(usage.items.find((i: any) => i.routeKey === body.routeKey)?.traceId).toBe(traceId);
  });

  it("does not trace health checks or probes", async () => {
    await fetch(`${sys.origin}/readyz`);
    await fetch(`${sys.origin}/healthz`);
    await fetch(`${sys.baseUrl}/domains/email`);
    await otlp.waitFor((all) => all.some((s) => s.service === "catalog" && s.name.endsWith("GetDomain")));
    expect(otlp.spans.filter((s) => /health|readyz|healthz/i.test(s.name))).toEqual([]);
  });
});
