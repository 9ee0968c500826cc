// What the release of a failed attempt tells the ledger about vendor work it did not charge: on a
// direct route (our own vendor key) whose vendor may have acted, `uncharged_work` with the usage
// error code and the attempt's price as the estimate; nothing when the vendor certainly did not act,
// and nothing on a paid rail (its payment is booked instead).
import { Route } from "@agentic/proto/catalog/v1";
import type { DeepPartial, ExecutionSettled } from "@agentic/proto/events/v1";
import { testDeps } from "../executor-deps.fixture";
import type { Execution } from "./execution";
import { quote } from "./pricing";
import { ProviderError, type ProviderAdapter } from "./provider-port";
import { RailError, type Rail, type RailPayment } from "./rail-port";
import { createAttemptRunner } from "./run-attempts";

const direct = Route.fromPartial({
  routeKey: "email.send.resend",
  domainKey: "email",
  capabilityId: "send",
  providerKey: "resend",
  networkKey: "direct",
  startingCostCredits: 10,
});
const mpp = Route.fromPartial({ ...direct, routeKey: "email.send.resend.mpp", networkKey: "mpp" });
const paid: RailPayment = { rail: "mpp", amountAtomic: "10000", amountMicroUsd: 10_000, settlement: "unknown" };

async function releaseOf(
  route: Route,
  send: Rail["send"],
  parseResponse: ProviderAdapter["parseResponse"] = () => ({ status: "completed", data: {} }),
): Promise<DeepPartial<ExecutionSettled>> {
  const settled: DeepPartial<ExecutionSettled>[] = [];
  const deps = testDeps({
    ledger: { getHold: async () => ({ hold: { state: "released" } }) as never },
    bus: { settle: async (e) => void settled.push(e), reportOutcome: () => undefined },
  });
  const adapter: ProviderAdapter = {
    providerKey: "resend",
    capabilityKeys: ["email.send"],
    buildRequest: () => ({ method: "POST", url: "https://x", headers: {} }),
    parseResponse,
  };
  const execution: Execution = {
    id: "exe_1",
    cmd: { userId: "u1", domainKey: "email", capabilityId: "send", body: {} },
    capabilityKey: "email.send",
    input: {},
    prepared: [
      {
        route,
        rail: { network: route.networkKey as Rail["network"], send },
        adapter,
        quote: quote(route, {}),
        request: { method: "POST", url: "https://x", headers: {} },
      },
    ],
    allowFallback: false,
    alternatives: false,
    notTried: [],
    planHash: "",
  };
  await createAttemptRunner(deps)(execution, { remainingMs: () => Infinity }).catch(() => undefined);
  expect(settled).toHaveLength(1);
  return settled[0]!;
}

describe("a failed attempt's release", () => {
  it("says the vendor may have worked on our key and nothing was charged: a timeout on a direct route", async () => {
    const release = await releaseOf(direct, async () => {
      throw new RailError("timeout", "timeout", "no answer");
    });
    expect(release.unchargedWork).toEqual({ reason: "PROVIDER_TIMEOUT", estimatedCostMicroUsd: 10_000 });
  });

  it("says nothing when the vendor refused the input (it did not act)", async () => {
    const release = await releaseOf(
      direct,
      async () => ({ status: 422, headers: {}, body: {}, payment: { rail: "api_key" } }),
      () => {
        throw new ProviderError("http_4xx", "resend", "422 from resend", { status: 422, blame: "input" });
      },
    );
    expect(release).toMatchObject({ kind: 2, usage: { errorCode: "PROVIDER_REJECTED_INPUT" } });
    expect(release.unchargedWork).toBeUndefined();
  });

  it("says nothing on a paid rail: the payment it sent is what the ledger books", async () => {
    const release = await releaseOf(mpp, async () => {
      throw new RailError("timeout", "timeout", "no answer", {}, { payment: paid });
    });
    expect(release.unchargedWork).toBeUndefined();
    expect(release.payments).toHaveLength(1);
  });
});
