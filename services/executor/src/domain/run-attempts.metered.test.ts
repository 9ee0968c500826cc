// A per-token attempt holds its quote and captures what the vendor's usage cost, never more than the
// hold: a usage priced above it is clamped, logged and counted. (The gateway tests run the real path;
// a vendor that over-reports cannot be provoked there.)
import { ModelPrice, Route } from "@agentic/proto/catalog/v1";
import type { ExecutionSettled } from "@agentic/proto/events/v1";
import type { HoldCreditsRequest } from "@agentic/proto/ledger/v1";
import { NO_METRICS, testDeps } from "../executor-deps.fixture";
import { quote } from "./pricing";
import type { ProviderAdapter, TokenUsage } from "./provider-port";
import type { Rail } from "./rail-port";
import { createAttemptRunner } from "./run-attempts";

const gpt4o = ModelPrice.fromPartial({
  model: "gpt-4o",
  inputCreditsPerMillionTokens: 3125,
  outputCreditsPerMillionTokens: 12500,
  maxOutputTokens: 16384,
});
const route = Route.fromPartial({
  routeKey: "models.chat.complete.openai",
  domainKey: "models",
  capabilityId: "chat-complete",
  providerKey: "openai",
  networkKey: "direct",
  routeMode: "managed",
  startingCostCredits: 1,
  billing: "per_token",
  models: [gpt4o],
});
const input = { model: "gpt-4o", messages: [{ role: "user", content: "hello" }], max_tokens: 1000 };

function run(usage: TokenUsage | undefined) {
  const holds: HoldCreditsRequest[] = [];
  const settlements: ExecutionSettled[] = [];
  const anomalies: string[] = [];
  const deps = testDeps({
    ledger: { holdCredits: async (req) => (holds.push(req), {}) as never },
    bus: { settle: async (e) => void settlements.push(e), reportOutcome: () => undefined },
    metrics: { ...NO_METRICS, meteredChargeAnomaly: (_routeKey, kind) => anomalies.push(kind) },
  });
  const rail: Rail = { network: "direct", send: async () => ({ status: 200, headers: {}, body: {} }) };
  const adapter: ProviderAdapter = {
    providerKey: "openai",
    capabilityKeys: ["models.chat.complete"],
    buildRequest: () => ({ method: "POST", url: "https://x", headers: {} }),
    parseResponse: () => ({ status: "completed", data: {}, ...(usage ? { usage } : {}) }),
  };
  const priced = quote(route, input);
  const execution = {
    id: "exe_1",
    cmd: { userId: "u1", domainKey: "models", capabilityId: "chat-complete", body: input },
    capabilityKey: "models.chat.complete",
    input,
    prepared: [
      {
        route,
        rail,
        adapter,
        quote: priced,
        request: { method: "POST" as const, url: "https://api.openai.example/v1/chat/completions", headers: {} },
      },
    ],
    allowFallback: false,
    alternatives: false,
    notTried: [],
    planHash: "",
  };
  return { result: createAttemptRunner(deps)(execution, { remainingMs: () => Infinity }), holds, settlements, anomalies };
}

describe("a per-token attempt", () => {
  it("holds the quote, then captures the usage at the model's prices with the tokens on the answer and the usage item", async () => {
    const { result, holds, settlements, anomalies } = run({ inputTokens: 1000, outputTokens: 100 });
    // Hold: (3 + 4 + 4 + 5) x 3125 + 1000 x 12,500 per 1M = 12.55 -> 13. Capture: 3.125 + 1.25 -> 5.
    await expect(result).resolves.toMatchObject({
      creditsCharged: 5,
      usage: { inputTokens: 1000, outputTokens: 100 },
      attempts: [{ heldCredits: 13 }],
    });
    expect(holds.map((h) => h.amountCredits)).toEqual([13]);
    expect(settlements).toHaveLength(1);
    expect(settlements[0]).toMatchObject({ capturedCredits: 5, usage: { inputTokens: 1000, outputTokens: 100, status: "succeeded" } });
    expect(anomalies).toEqual([]);
  });

  it("captures no more than the hold when the vendor's usage costs more, and counts it", async () => {
    const { result, settlements, anomalies } = run({ inputTokens: 1_000_000, outputTokens: 1000 });
    await expect(result).resolves.toMatchObject({ creditsCharged: 13 });
    expect(settlements[0]?.capturedCredits).toBe(13);
    expect(anomalies).toEqual(["usage_over_hold"]);
  });

  it("captures the hold when the vendor reports no usage, and counts it", async () => {
    const { result, settlements, anomalies } = run(undefined);
    await expect(result).resolves.toMatchObject({ creditsCharged: 13 });
    expect(settlements[0]?.capturedCredits).toBe(13);
    expect(settlements[0]?.usage).not.toHaveProperty("inputTokens");
    expect(anomalies).toEqual(["usage_missing"]);
  });
});
