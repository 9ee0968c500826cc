// The planner reads whether a route can run from the catalog's readiness and never decides it again;
// a route that arrives without one is not executable (fail closed).
import { Capability, OperationContract, Route, type RouteReadiness } from "@agentic/proto/catalog/v1";
import type { AppError } from "@agentic/platform/core";
import { testDeps } from "../executor-deps.fixture";
import { createPlanner } from "./plan-execution";
import type { ProviderAdapter } from "./provider-port";
import type { Rail } from "./rail-port";

const capability = Capability.fromPartial({
  capabilityKey: "geo.time.current",
  domainKey: "geo",
  capabilityId: "time-current",
  status: "live",
});
const route = (providerKey: string, price: number, readiness: RouteReadiness | undefined, status = "live") =>
  Route.fromPartial({
    routeKey: `geo.time.current.${providerKey}`,
    domainKey: "geo",
    capabilityId: "time-current",
    providerKey,
    networkKey: "direct",
    routeMode: "managed",
    status,
    startingCostCredits: price,
    ...(readiness ? { readiness } : {}),
  });
const executable: RouteReadiness = { executable: true, blockedBy: "", reason: "" };
const byo: RouteReadiness = {
  executable: false,
  blockedBy: "BYO_CREDENTIALS_REQUIRED",
  reason: "it runs on your own provider account, which Agentic API cannot hold yet",
};

/** A planner whose every route has a rail and a configured adapter: only readiness can refuse one. */
function plan(routes: Route[]) {
  const adapter: ProviderAdapter = {
    providerKey: "any",
    capabilityKeys: ["geo.time.current"],
    buildRequest: () => ({ method: "GET", url: "https://vendor.example/now", headers: {} }),
    parseResponse: () => ({ status: "completed", data: {} }),
  };
  const rail: Rail = { network: "direct", send: () => Promise.reject(new Error("not used")) };
  const deps = testDeps({
    catalog: {
      capability: async () => ({
        capability,
        routes,
        execute: OperationContract.fromPartial({ status: "available" }),
        catalogVersion: "v1",
      }),
    },
    router: { recommend: async () => ({ candidates: [] }) as never, getRecommendation: () => Promise.reject(new Error("not used")) },
    rails: { get: () => rail, networks: ["direct"] },
    providers: {
      get: () => ({ adapter, ctx: { baseUrl: "https://vendor.example" } }),
      providerKeys: [],
      resourceFieldsOf: () => [],
      senderFieldsOf: () => [],
      platformSenders: [],
      approvalOf: () => undefined,
    },
  });
  const cmd = { userId: "u1", domainKey: "geo", capabilityId: "time-current", body: {} };
  return createPlanner(deps)(cmd, "exe_1", { remainingMs: () => Infinity });
}

describe("route readiness in the plan", () => {
  it("runs the routes the catalog calls executable, whatever their status says", async () => {
    const execution = await plan([route("a", 5, executable, "pending"), route("b", 3, byo)]);
    expect(execution.prepared.map((p) => p.route.routeKey)).toEqual(["geo.time.current.a"]);
  });

  it("refuses with the catalog's blockedBy and reason, and takes a route without readiness as pending", async () => {
    const refusal = await plan([route("a", 5, undefined), route("b", 3, byo)]).catch((err: AppError) => err);
    expect(refusal).toMatchObject({
      code: "CAPABILITY_GATED",
      message: expect.stringContaining(byo.reason),
      details: { blockingRequirements: ["BYO_CREDENTIALS_REQUIRED", "ROUTE_PENDING"] },
    });
  });
});
