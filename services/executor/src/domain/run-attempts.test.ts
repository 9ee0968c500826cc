// What a paid provider call leaves behind: the payment the rail made is recorded on the provider's
// CLIENT span and counted per rail and settlement, even when the vendor's answer then proves useless.
import { trace, SpanKind } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { Route } from "@agentic/proto/catalog/v1";
import { NO_METRICS, testDeps } from "../executor-deps.fixture";
import type { Execution } from "./execution";
import { quote } from "./pricing";
import { ProviderError, type ProviderAdapter } from "./provider-port";
import { RailError, type Rail, type RailPayment, type RailResponse } from "./rail-port";
import { createAttemptRunner } from "./run-attempts";
import type { AppError } from "@agentic/platform/core";

const exporter = new InMemorySpanExporter();
beforeAll(() => trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })));
afterAll(() => trace.disable());
beforeEach(() => exporter.reset());

const mppRoute = Route.fromPartial({
  routeKey: "geo.time.current.timeapi.mpp",
  domainKey: "geo",
  capabilityId: "time-current",
  providerKey: "timeapi",
  networkKey: "mpp",
  startingCostCredits: 5,
});
const directRoute = Route.fromPartial({
  routeKey: "email.send.resend",
  domainKey: "email",
  capabilityId: "send",
  providerKey: "resend",
  networkKey: "direct",
  startingCostCredits: 10,
});
const mppPayment: RailPayment = {
  rail: "mpp",
  amountAtomic: "5000",
  asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  network: "eip155:84532",
  payTo: "0x00000000000000000000000000000000000000aa",
  payer: "0x00000000000000000000000000000000000000bb",
  reference: "0xfeed",
  settlement: "settled",
};

function setup(answer: RailResponse, parse: ProviderAdapter["parseResponse"] = () => ({ status: "completed", data: { ok: true } })) {
  const payments: Array<[string, string]> = [];
  const deps = testDeps({ metrics: { ...NO_METRICS, railPayment: (rail, settlement) => payments.push([rail, settlement]) } });
  const rail: Rail = { network: "mpp", send: async () => answer };
  const adapter: ProviderAdapter = {
    providerKey: "timeapi",
    capabilityKeys: ["geo.time.current"],
    buildRequest: () => ({ method: "GET", url: "https://x", headers: {} }),
    parseResponse: parse,
  };
  const execution = (route: Route): Execution => ({
    id: "exe_1",
    cmd: { userId: "u1", domainKey: route.domainKey, capabilityId: route.capabilityId, body: {} },
    capabilityKey: `${route.domainKey}.${route.capabilityId}`,
    input: {},
    prepared: [
      { route, rail, adapter, quote: quote(route, {}), request: { method: "GET", url: "https://seller.example/now", headers: {} } },
    ],
    allowFallback: false,
    alternatives: false,
    notTried: [],
    planHash: "",
  });
  return { run: createAttemptRunner(deps), execution, payments };
}

const budget = { remainingMs: () => Infinity };
const providerSpan = () => exporter.getFinishedSpans().find((s) => s.kind === SpanKind.CLIENT)!;

describe("payments made by a paid rail", () => {
  it("are set on the provider span and counted by rail and settlement", async () => {
    const { run, execution, payments } = setup({ status: 200, headers: {}, body: {}, payment: mppPayment });
    await expect(run(execution(mppRoute), budget)).resolves.toMatchObject({ success: true, creditsCharged: 5 });
    expect(providerSpan().attributes).toMatchObject({
      "agentic.payment.rail": "mpp",
      "agentic.payment.amount_atomic": "5000",
      "agentic.payment.asset": mppPayment.asset,
      "agentic.payment.network": "eip155:84532",
      "agentic.payment.pay_to": mppPayment.payTo,
      "agentic.payment.reference": "0xfeed",
      "agentic.payment.settlement": "settled",
    });
    expect(payments).toEqual([["mpp", "settled"]]);
  });

  it("are recorded when the vendor's paid answer is then unusable: the money is spent either way", async () => {
    const unreadable = () => {
      throw new ProviderError("invalid_response", "timeapi", "no time in the answer");
    };
    const { run, execution, payments } = setup(
      { status: 200, headers: {}, body: {}, payment: { ...mppPayment, settlement: "unconfirmed" } },
      unreadable,
    );
    await expect(run(execution(mppRoute), budget)).rejects.toMatchObject({ code: "PROVIDER_ERROR" });
    expect(providerSpan().attributes).toMatchObject({
      "agentic.payment.amount_atomic": "5000",
      "agentic.payment.settlement": "unconfirmed",
    });
    expect(payments).toEqual([["mpp", "unconfirmed"]]);
  });

  it("leave direct calls, billed to our vendor key, without payment attributes or counts", async () => {
    const { run, execution, payments } = setup({ status: 200, headers: {}, body: {}, payment: { rail: "api_key" } });
    await run(execution(directRoute), budget);
    expect(Object.keys(providerSpan().attributes).filter((k) => k.startsWith("agentic.payment."))).toEqual([]);
    expect(payments).toEqual([]);
  });
});

describe("an attempt whose payment credential was sent", () => {
  const x402Route = Route.fromPartial({
    routeKey: "search.answer.x.agentcash",
    domainKey: "search",
    capabilityId: "answer",
    providerKey: "x",
    networkKey: "agentcash",
    startingCostCredits: 5,
  });
  const mppRoute2 = Route.fromPartial({
    routeKey: "search.answer.y.mpp",
    domainKey: "search",
    capabilityId: "answer",
    providerKey: "y",
    networkKey: "mpp",
    startingCostCredits: 6,
  });
  const direct = Route.fromPartial({
    routeKey: "search.answer.z",
    domainKey: "search",
    capabilityId: "answer",
    providerKey: "z",
    networkKey: "direct",
    startingCostCredits: 7,
  });
  const rejected: RailPayment = { ...mppPayment, rail: "x402", settlement: "rejected", amountMicroUsd: 5000 };

  /** Three routes in order: x402 (the seller refuses our signed payment), then MPP, then direct. */
  function run(routes: Route[]) {
    const settled: Array<{ holdId: string; kind: number; payments: unknown[]; decisionJson?: string | undefined }> = [];
    const sent: string[] = [];
    const rail = (network: Rail["network"], answer: () => Promise<RailResponse>): Rail => ({
      network,
      send: async () => (sent.push(network), answer()),
    });
    const rails: Record<string, Rail> = {
      agentcash: rail("agentcash", async () => {
        throw new RailError("payment_rejected", "seller_rejected_payment", "refused", {}, { payment: rejected });
      }),
      mpp: rail("mpp", async () => ({ status: 200, headers: {}, body: {}, payment: mppPayment })),
      direct: rail("direct", async () => ({ status: 200, headers: {}, body: {}, payment: { rail: "api_key" } })),
    };
    const deps = testDeps({
      ledger: { getHold: async () => ({ hold: { state: "released" } }) as never },
      bus: {
        settle: async (e) =>
          void settled.push({ holdId: e.holdId, kind: e.kind, payments: e.payments, decisionJson: e.usage?.decisionJson }),
        reportOutcome: () => undefined,
      },
    });
    const adapter: ProviderAdapter = {
      providerKey: "x",
      capabilityKeys: ["search.answer"],
      buildRequest: () => ({ method: "GET", url: "https://x", headers: {} }),
      parseResponse: () => ({ status: "completed", data: {} }),
    };
    const execution: Execution = {
      id: "exe_2",
      cmd: { userId: "u1", domainKey: "search", capabilityId: "answer", body: {} },
      capabilityKey: "search.answer",
      input: {},
      prepared: routes.map((route) => ({
        route,
        rail: rails[route.networkKey]!,
        adapter,
        quote: quote(route, {}),
        request: { method: "GET", url: "https://x", headers: {} },
      })),
      allowFallback: true,
      alternatives: true,
      notTried: [],
      planHash: "",
    };
    return { result: createAttemptRunner(deps)(execution, budget), settled, sent };
  }

  it("never falls back to another paying route (it could pay twice), but may to a direct one; the release books the payment", async () => {
    const { result, settled, sent } = run([x402Route, mppRoute2, direct]);
    await expect(result).resolves.toMatchObject({ success: true, routeKey: "search.answer.z" });
    expect(sent).toEqual(["agentcash", "direct"]);
    expect(settled.map((s) => [s.kind, s.payments])).toEqual([
      [2, [expect.objectContaining({ rail: "x402", settlement: "rejected", amountMicroUsd: 5000 })]],
      [1, []],
    ]);
  });

  it("ends the execution when only paying routes are left", async () => {
    const { result, sent } = run([x402Route, mppRoute2]);
    await expect(result).rejects.toMatchObject({ code: "PROVIDER_ERROR" });
    expect(sent).toEqual(["agentcash"]);
  });

  it("explains it: the paying route passed over is not reached, in the answer and in the final error and its release", async () => {
    const served = await run([x402Route, mppRoute2, direct]).result;
    expect(served.decision).toMatchObject({
      servedRouteKey: "search.answer.z",
      attempts: [
        { routeKey: x402Route.routeKey, outcome: "payment", errorCode: "PAYMENT_FAILED" },
        { routeKey: "search.answer.z", outcome: "ok" },
      ],
      notTried: [{ routeKey: mppRoute2.routeKey, reason: "not_reached", detail: expect.stringContaining("payment credential") }],
    });
    const failed = run([x402Route, mppRoute2]);
    const err = await failed.result.then(
      () => {
        throw new Error("expected the execution to fail");
      },
      (e: AppError) => e,
    );
    expect(err.details?.decision).toMatchObject({
      servedRouteKey: "",
      notTried: [{ routeKey: mppRoute2.routeKey, reason: "not_reached" }],
    });
    expect(JSON.parse(failed.settled.at(-1)?.decisionJson ?? "{}")).toEqual(err.details?.decision);
  });
});

describe("an attempt on a route whose vendor quota is spent for the caller", () => {
  const quotaRoute = Route.fromPartial({
    routeKey: "finance.fx.rate.oxr",
    domainKey: "finance",
    capabilityId: "fx-rate",
    providerKey: "oxr",
    networkKey: "direct",
    startingCostCredits: 2,
    vendorQuota: { requests: 10, window: "day", perUserRequests: 1 },
  });
  const other = Route.fromPartial({ ...quotaRoute, routeKey: "finance.fx.rate.other", providerKey: "other", vendorQuota: undefined });
  const resetAtMs = Date.now() + 90_000;

  function run(routes: Route[], allowFallback: boolean) {
    const holds: string[] = [];
    const sent: string[] = [];
    const deps = testDeps({
      ledger: { holdCredits: async (req: { routeKey: string }) => (holds.push(req.routeKey), {}) as never },
      vendorQuota: {
        take: async (route) => (route.vendorQuota ? { ok: false, scope: "user", resetAtMs } : { ok: true }),
      },
    });
    const execution: Execution = {
      id: "exe_3",
      cmd: { userId: "u1", domainKey: "finance", capabilityId: "fx-rate", body: {} },
      capabilityKey: "finance.fx.rate",
      input: {},
      prepared: routes.map((route) => ({
        route,
        rail: { network: "direct", send: async () => (sent.push(route.routeKey), { status: 200, headers: {}, body: {} }) },
        adapter: {
          providerKey: route.providerKey,
          capabilityKeys: ["finance.fx.rate"],
          buildRequest: () => ({ method: "GET", url: "https://x", headers: {} }),
          parseResponse: () => ({ status: "completed", data: {} }),
        },
        quote: quote(route, {}),
        request: { method: "GET", url: "https://x", headers: {} },
      })),
      allowFallback,
      alternatives: routes.length > 1,
      notTried: [],
      planHash: "",
    };
    return { result: createAttemptRunner(deps)(execution, budget), holds, sent };
  }

  it("is refused with 429 VENDOR_QUOTA_EXHAUSTED and Retry-After, before any hold or vendor call, when nothing else may run", async () => {
    for (const [routes, allowFallback] of [
      [[quotaRoute], true],
      [[quotaRoute, other], false],
    ] as const) {
      const { result, holds, sent } = run([...routes], allowFallback);
      const err = (await result.catch((e: unknown) => e)) as AppError;
      expect(err).toMatchObject({ kind: "resource_exhausted", code: "VENDOR_QUOTA_EXHAUSTED" });
      expect(err.message).toContain("your share");
      expect(err.details?.retryAfterSeconds).toBeGreaterThanOrEqual(89);
      expect(err.details?.retryAfterSeconds).toBeLessThanOrEqual(90);
      expect([holds, sent]).toEqual([[], []]);
    }
  });

  it("falls back to the next route when allowed, and says why it passed over the first", async () => {
    const { result, holds, sent } = run([quotaRoute, other], true);
    const served = await result;
    expect(served).toMatchObject({ success: true, routeKey: other.routeKey });
    expect([holds, sent]).toEqual([[other.routeKey], [other.routeKey]]);
    expect(served.decision?.notTried).toContainEqual(expect.objectContaining({ routeKey: quotaRoute.routeKey, reason: "vendor_quota" }));
  });
});

describe("an attempt whose answer could not be settled", () => {
  it("is never started: with a bus that takes less than the largest capture, nothing is held and no vendor is called", async () => {
    const holds: unknown[] = [];
    const sent: unknown[] = [];
    const deps = testDeps({
      ledger: { holdCredits: async (req) => (holds.push(req), {}) as never },
      bus: { settle: async () => undefined, reportOutcome: () => undefined, maxMessageBytes: () => 1024 * 1024 },
    });
    const rail: Rail = { network: "direct", send: async (req) => (sent.push(req), { status: 200, headers: {}, body: {} }) };
    const adapter: ProviderAdapter = {
      providerKey: "resend",
      capabilityKeys: ["email.send"],
      buildRequest: () => ({ method: "POST", url: "https://x", headers: {} }),
      parseResponse: () => ({ status: "sent", data: {} }),
    };
    const execution: Execution = {
      id: "exe_3",
      cmd: { userId: "u1", domainKey: "email", capabilityId: "send", body: {} },
      capabilityKey: "email.send",
      input: {},
      prepared: [
        { route: directRoute, rail, adapter, quote: quote(directRoute, {}), request: { method: "POST", url: "https://x", headers: {} } },
      ],
      allowFallback: false,
      alternatives: false,
      notTried: [],
      planHash: "",
    };
    await expect(createAttemptRunner(deps)(execution, budget)).rejects.toMatchObject({ code: "UNAVAILABLE", kind: "unavailable" });
    expect([holds, sent]).toEqual([[], []]);
  });
});
