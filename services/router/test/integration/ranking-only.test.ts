// A ranking-only recommend (what the executor asks before an unpinned execute) answers the same
// ranking as a full one without reading the wallet: no GetWallet, so no CREDITS_REQUIRED, and it
// still answers while the ledger is down; nothing explains it (reasons, next actions, workflows).
import { status } from "@grpc/grpc-js";
import type { RecommendRequest } from "@agentic/proto/router/v1";
import { startRouterSystem, type RouterSystem } from "../system";

const RICH = "ranking-rich";
const POOR = "ranking-poor";

describe("RouterService/Recommend with rankingOnly", () => {
  let sys: RouterSystem;
  beforeAll(async () => {
    sys = await startRouterSystem({ grants: { [RICH]: 10_000, [POOR]: 1 }, env: { DEPENDENCY_DEADLINE_MS: "500" } });
  });
  afterAll(() => sys?.stop());

  const recommend = (req: Partial<RecommendRequest>) =>
    sys.router.client.recommend({ userId: RICH, domainKey: "email", capabilityId: "send", input: {}, optimizationPreferences: [], ...req });
  const ranking = (res: { candidates: { routeKey: string; blockingRequirements: string[]; score: number }[] }) =>
    res.candidates.map((c) => ({ routeKey: c.routeKey, blockingRequirements: c.blockingRequirements, score: c.score }));

  it("ranks as a full recommend does, with every block but CREDITS_REQUIRED, and explains nothing", async () => {
    for (const input of [{ optimizationPreferences: ["cost"] }, { optimizationPreferences: ["cost"], tracking: true }]) {
      const full = await recommend({ input });
      const only = await recommend({ input, rankingOnly: true });
      expect(ranking(only)).toEqual(ranking(full));
      expect(only.recommendedRouteKey).toBe(full.recommendedRouteKey);
      expect(only.bestExecutableRouteKey).toBe(full.bestExecutableRouteKey);
      expect(only.candidates.every((c) => c.reasons.length === 0 && c.nextActions.length === 0)).toBe(true);
      expect(only).toMatchObject({ nextActions: [], workflowRecommendations: [] });
      expect(only.bestWorkflowRecommendation).toBeUndefined();
    }
    // A 1-credit wallet: the full answer says CREDITS_REQUIRED, the ranking never does (the executor's hold decides).
    const poorFull = await recommend({ userId: POOR, input: { optimizationPreferences: ["reliability"] } });
    expect(poorFull.candidates.find((c) => c.routeKey === "email.send.resend")?.blockingRequirements).toEqual(["CREDITS_REQUIRED"]);
    const poorOnly = await recommend({ userId: POOR, input: { optimizationPreferences: ["reliability"] }, rankingOnly: true });
    expect(poorOnly.candidates.find((c) => c.routeKey === "email.send.resend")).toMatchObject({
      canExecuteNow: true,
      blockingRequirements: [],
    });
    expect(poorOnly.candidates.flatMap((c) => c.blockingRequirements)).not.toContain("CREDITS_REQUIRED");
  });

  it("never calls the ledger: it answers while the ledger is down, a full recommend does not", async () => {
    await sys.ledger.stop();
    // A wallet the router has not read yet (its cache holds RICH's reads without a key, from the test above).
    const full = await recommend({ keyId: "key_not_read_yet", input: {} }).catch((e) => e);
    expect(full.code).toBe(status.UNAVAILABLE);
    const started = Date.now();
    const only = await recommend({ input: {}, rankingOnly: true });
    expect(only.success).toBe(true);
    expect(only.candidates.length).toBeGreaterThan(0);
    // No wallet read waited for its deadline (500 ms here).
    expect(Date.now() - started).toBeLessThan(400);
  });
});
