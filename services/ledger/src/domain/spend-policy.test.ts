// The default agent policy in the pure spend decision: which policies cover a hold, what each counts,
// and what decideSpend refuses, given the buckets a store would read.
import {
  bucketInScope,
  coveringSpendScopes,
  decideSpend,
  heldDelta,
  spendUsageOfBuckets,
  type SpendAttribution,
  type SpendBucket,
  type SpendPolicy,
} from "./spend-policy";

const T0 = new Date("2030-01-07T10:00:00.000Z");
const policy = (fields: Partial<SpendPolicy>): SpendPolicy => ({
  keyId: "k1",
  reset: "daily",
  capabilityCaps: [],
  createdAt: T0,
  updatedAt: T0,
  ...fields,
});
const bucket = (agentName: string, credits: number, keyId = "k1"): SpendBucket => ({
  keyId,
  agentName,
  capabilityKey: "search.web",
  day: "2030-01-07",
  ...heldDelta(credits),
});

/** decideSpend as a hold's step takes it: the covering policies of `who`, each with the usage of the buckets in its scope. */
function decide(policies: SpendPolicy[], buckets: SpendBucket[], who: Omit<SpendAttribution, "capabilityKey">, amountCredits: number) {
  const checks = coveringSpendScopes(policies, { ...who }).map(({ policy, scope }) => ({
    policy,
    usage: spendUsageOfBuckets(buckets.filter((b) => bucketInScope(scope, b))),
  }));
  return decideSpend(checks, { ...who, capabilityKey: "search.web" }, amountCredits, T0);
}

describe("the default agent policy", () => {
  const keyWide = policy({ budgetCredits: 1_000 });
  const others = policy({ otherAgents: true, budgetCredits: 10 });
  const alpha = policy({ agentName: "alpha", budgetCredits: 50 });

  it("covers an agent without a policy of its own, and a hold naming no agent; never an agent with its own", () => {
    const covering = (agentName?: string) =>
      coveringSpendScopes([alpha, others, keyWide], { keyId: "k1", ...(agentName !== undefined ? { agentName } : {}) }).map(
        (c) => c.policy,
      );
    expect(covering("beta")).toEqual([keyWide, others]);
    expect(covering()).toEqual([keyWide, others]);
    expect(covering("alpha")).toEqual([keyWide, alpha]);
    // Another key's policies never cover k1's holds.
    expect(coveringSpendScopes([policy({ keyId: "k2", otherAgents: true, budgetCredits: 1 })], { keyId: "k1" })).toEqual([]);
  });

  it("counts every agent but those with their own policy, together: a new name gets no new budget", () => {
    const buckets = [bucket("beta", 4), bucket("", 3), bucket("alpha", 40), bucket("gamma", 1, "k2")];
    const [, othersScope] = coveringSpendScopes([keyWide, others, alpha], { keyId: "k1", agentName: "gamma" });
    expect(othersScope!.scope).toEqual({ keyId: "k1", exceptAgentNames: ["alpha"] });
    expect(spendUsageOfBuckets(buckets.filter((b) => bucketInScope(othersScope!.scope, b))).spentCredits).toBe(7);

    expect(decide([keyWide, others, alpha], buckets, { keyId: "k1", agentName: "gamma" }, 3)).toBeNull();
    expect(decide([keyWide, others, alpha], buckets, { keyId: "k1", agentName: "a-new-name" }, 4)).toEqual({
      code: "SPEND_LIMIT_EXCEEDED",
      keyId: "k1",
      otherAgents: true,
      limit: "budget",
      limitValue: 10,
      remaining: 3,
      requested: 4,
      resetsAt: new Date("2030-01-08T00:00:00.000Z"),
    });
    expect(decide([keyWide, others, alpha], buckets, { keyId: "k1" }, 4)).toMatchObject({ otherAgents: true, remaining: 3 });
    // alpha answers to its own policy only (40 of 50 spent), whatever the others spent.
    expect(decide([keyWide, others, alpha], buckets, { keyId: "k1", agentName: "alpha" }, 10)).toBeNull();
    expect(decide([keyWide, others, alpha], buckets, { keyId: "k1", agentName: "alpha" }, 11)).toMatchObject({
      agentName: "alpha",
      remaining: 10,
    });
  });

  it("stops counting an agent once it is given its own policy (its spend then counts there)", () => {
    const buckets = [bucket("beta", 8), bucket("gamma", 2)];
    expect(decide([others], buckets, { keyId: "k1", agentName: "gamma" }, 1)).toMatchObject({ remaining: 0 });
    const beta = policy({ agentName: "beta", budgetCredits: 100 });
    expect(decide([others, beta], buckets, { keyId: "k1", agentName: "gamma" }, 8)).toBeNull();
    expect(decide([others, beta], buckets, { keyId: "k1", agentName: "gamma" }, 9)).toMatchObject({ otherAgents: true, remaining: 8 });
  });

  it("checks the key-wide budget as well: the first refusal wins, in check order", () => {
    const tight = policy({ budgetCredits: 5 });
    expect(decide([others, tight], [bucket("beta", 4)], { keyId: "k1", agentName: "beta" }, 2)).toMatchObject({
      limitValue: 5,
      remaining: 1,
    });
    expect(decide([others, tight], [bucket("beta", 4)], { keyId: "k1", agentName: "beta" }, 2)).not.toHaveProperty("otherAgents");
  });
});
