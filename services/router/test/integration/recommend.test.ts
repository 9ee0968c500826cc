// Recommend over real gRPC, on the real catalog (fixture data), the real ledger and a real
// nats-server: gating, credits, workflows, preferences, errors.
import { status } from "@grpc/grpc-js";
import { fromServiceError } from "@agentic/platform";
import type { RecommendRequest } from "@agentic/proto/router/v1";
import { startRouterSystem, type RouterSystem } from "../system";

const RICH = "user-rich";
const POOR = "user-poor";

describe("RouterService/Recommend", () => {
  let sys: RouterSystem;
  beforeAll(async () => {
    sys = await startRouterSystem({ grants: { [RICH]: 10_000, [POOR]: 1 } });
  });
  afterAll(() => sys?.stop());

  const recommend = (req: Partial<RecommendRequest>) =>
    sys.router.client.recommend({ userId: RICH, domainKey: "email", capabilityId: "send", input: {}, optimizationPreferences: [], ...req });

  it("recommends the gated text.analyze mpp route, says it cannot run now, and explains it", async () => {
    const res = await recommend({ domainKey: "text", capabilityId: "analyze" });
    expect(res).toMatchObject({
      success: true,
      productKey: "text.analyze",
      recommendedProvider: "openai",
      recommendedRouteKey: "text.analyze.openai.mpp",
      recommendedRouteMode: "managed",
      canExecuteNow: false,
    });
    expect(res.blockingRequirements).toContain("CAPABILITY_GATED");
    expect(res.nextActions[0]).toContain("text.analyze is recommend-only");
    expect(res.bestExecutableRouteKey).toBeUndefined();
    const [candidate] = res.candidates;
    expect(candidate).toMatchObject({ routeKey: "text.analyze.openai.mpp", settlementRail: "mpp", priceCredits: 2, canExecuteNow: false });
    expect(candidate!.reasons).toEqual(
      expect.arrayContaining([
        "cheapest route: 2 credits",
        "no live traffic yet: 97.0% success expected (catalog prior)",
        "p50 1500 ms expected (catalog prior)",
      ]),
    );
    expect(candidate!.score).toBeGreaterThan(0);
    expect(candidate!.score).toBeLessThanOrEqual(1);
  });

  it("gives a 1-credit wallet CREDITS_REQUIRED on managed routes, with how many credits are missing", async () => {
    const res = await recommend({ userId: POOR, input: { optimizationPreferences: ["reliability"] } });
    for (const key of ["email.send.resend", "email.send.sendgrid"]) {
      const c = res.candidates.find((x) => x.routeKey === key)!;
      expect(c.canExecuteNow).toBe(false);
      expect(c.blockingRequirements).toEqual(["CREDITS_REQUIRED"]);
    }
    const resend = res.candidates.find((x) => x.routeKey === "email.send.resend")!;
    expect(resend.nextActions[0]).toBe(
      'Add 9 credits (balance 1, needed 10): POST /dev/init {"balanceCredits": 10} outside production, or top up the wallet',
    );
    // The same request from a funded wallet can run.
    const rich = await recommend({ input: { optimizationPreferences: ["reliability"] } });
    expect(rich.candidates.find((x) => x.routeKey === "email.send.resend")).toMatchObject({
      canExecuteNow: true,
      blockingRequirements: [],
    });
  });

  it("picks by preference order and honours tracking", async () => {
    const cost = await recommend({ input: { optimizationPreferences: ["cost"] } });
    // The byo routes are cheaper but cannot run without the caller's own credentials or inbox.
    expect(cost.recommendedRouteKey).toBe("email.send.mailgun");
    expect(cost).toMatchObject({
      canExecuteNow: false,
      blockingRequirements: ["BYO_CREDENTIALS_REQUIRED"],
      bestExecutableRouteKey: "email.send.resend",
    });
    const tracked = await recommend({ input: { optimizationPreferences: ["cost"], tracking: true } });
    expect(tracked.recommendedRouteKey).toBe("email.send.mailgun");
    expect(tracked.bestExecutableRouteKey).toBe("email.send.sendgrid");
    const resend = tracked.candidates.find((c) => c.routeKey === "email.send.resend")!;
    expect(resend).toMatchObject({ score: 0, trackingSupported: false, blockingRequirements: ["FEATURE_UNSUPPORTED"] });
    const quality = await recommend({ input: { optimizationPreferences: ["quality", "reliability"] } });
    expect(quality.recommendedRouteKey).toBe("email.send.resend");
  });

  it("describes the owned-inbox and bring-your-own-key workflows from catalog data", async () => {
    const res = await recommend({ input: { optimizationPreferences: ["cost"] } });
    const inbox = res.workflowRecommendations.find((w) => w.workflowType === "acquire_inbox_then_send");
    expect(inbox).toMatchObject({
      acquisitionCapabilityKey: "email.inbox.buy",
      acquisitionRouteKey: "email.inbox.buy.agentmail.mpp",
      acquisitionProvider: "agentmail",
      acquisitionPriceCredits: 2_500,
      executeRouteKey: "email.send.agentmail.mpp",
      executeProvider: "agentmail",
      executePriceCredits: 3,
      estimatedFirstExecutionTotalCredits: 2_503,
      recurringExecutionCredits: 3,
      managedAfterAcquisition: true,
      blockingRequirements: [],
    });
    const byo = res.workflowRecommendations.find((w) => w.workflowType === "bring_your_own_key");
    expect(byo).toMatchObject({ executeRouteKey: "email.send.mailgun", blockingRequirements: ["BYO_CREDENTIALS_REQUIRED"] });
    expect(res.bestWorkflowRecommendation?.workflowType).toBe("acquire_inbox_then_send");
    // With an inbox named in the body, the owned-inbox route can run at once.
    const withInbox = await recommend({ input: { optimizationPreferences: ["cost"], inboxId: "bot@agentmail.to" } });
    expect(withInbox.candidates.find((c) => c.routeKey === "email.send.agentmail.mpp")).toMatchObject({ canExecuteNow: true });
  });

  it("applies defaults to an empty body, and remembers an agent's preferences", async () => {
    const empty = await recommend({ input: undefined });
    expect(empty).toMatchObject({ preferenceSource: "default", optimizationPreferences: ["cost", "reliability"] });
    const first = await recommend({ input: { agentName: "alpha_agent", optimizationPreferences: ["speed", "quality"] } });
    expect(first.preferenceSource).toBe("request");
    const again = await recommend({ input: { agentName: "alpha_agent" } });
    expect(again).toMatchObject({ preferenceSource: "agent", optimizationPreferences: ["speed", "quality"] });
    const otherUser = await recommend({ userId: POOR, input: { agentName: "alpha_agent" } });
    expect(otherUser.preferenceSource).toBe("default");
  });

  it("rejects an unknown or repeated goal and wrong types with INVALID_INPUT naming the field", async () => {
    for (const [input, field] of [
      [{ optimizationPreferences: ["cost", "cheapest"] }, "optimizationPreferences[1]"],
      [{ optimizationPreferences: ["cost", "cost"] }, "optimizationPreferences[1]"],
      [{ optimizationPreferences: "cost" }, "optimizationPreferences"],
      [{ agentName: "x".repeat(101) }, "agentName"],
      [{ inboxId: 42 }, "inboxId"],
    ] as const) {
      const err = await recommend({ input: input as Record<string, unknown> }).catch((e) => e);
      expect(err.code).toBe(status.INVALID_ARGUMENT);
      const remote = fromServiceError(err);
      expect(remote.code).toBe("INVALID_INPUT");
      expect(remote.hint).toContain(field);
      expect(remote.details).toEqual({ field });
    }
  });

  it("accepts execute fields that share a feature's name: only a true boolean is a feature ask", async () => {
    const plain = await recommend({ input: { optimizationPreferences: ["cost"] } });
    // html is a feature of every email.send route and also the email's body; the body asks for nothing.
    const withBody = await recommend({ input: { optimizationPreferences: ["cost"], to: "a@b.co", subject: "hi", html: "<p>x</p>" } });
    expect(withBody.candidates).toEqual(plain.candidates);
    expect(withBody.recommendedRouteKey).toBe(plain.recommendedRouteKey);
    // A non-boolean tracking is no ask either, so it does not exclude the routes without tracking.
    const notAnAsk = await recommend({ input: { optimizationPreferences: ["cost"], tracking: "yes" } });
    expect(notAnAsk.bestExecutableRouteKey).toBe("email.send.resend");
    expect(notAnAsk.candidates.find((c) => c.routeKey === "email.send.resend")!.blockingRequirements).toEqual([]);
  });

  it("passes the catalog's NOT_FOUND codes through", async () => {
    const noDomain = await recommend({ domainKey: "nope" }).catch((e) => e);
    expect(noDomain.code).toBe(status.NOT_FOUND);
    expect(fromServiceError(noDomain).code).toBe("DOMAIN_NOT_FOUND");
    const noCap = await recommend({ capabilityId: "teleport" }).catch((e) => e);
    expect(noCap.code).toBe(status.NOT_FOUND);
    expect(fromServiceError(noCap).code).toBe("CAPABILITY_NOT_FOUND");
  });

  it("answers from the catalog version it read", async () => {
    const res = await recommend({});
    expect(res.catalogVersion).toBe(sys.catalog.catalog.version);
  });
});
