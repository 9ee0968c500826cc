// Spend policies with three ledger replicas on one store, over real gRPC and NATS: concurrent holds
// spread across the replicas never exceed a budget, a policy changed through one replica applies to
// the next hold on another (the policy is read in the hold's store step, no cache), and a release
// published on the bus gives its credits back to the budget.
import { waitFor } from "@agentic/testing";
import { fromServiceError } from "@agentic/platform";
import { SettlementKind, assertLedgerConsistent, publishSettlement, startTestLedger, type TestLedger, openMemoryStore } from "../harness";
import { uid, useNatsServer } from "../support";

const nats = useNatsServer();

describe("spend policies across ledger replicas", () => {
  it("hold exactly the budget from 60 concurrent holds on three replicas; a change on one applies on the others at once", async () => {
    const store = await openMemoryStore();
    const replicas: TestLedger[] = await Promise.all([1, 2, 3].map(() => startTestLedger({ natsUrl: nats().url, store })));
    try {
      const [a, b, c] = replicas as [TestLedger, TestLedger, TestLedger];
      const userId = uid("user");
      const { key } = await a.client.createApiKey({ userId, name: "" });
      const keyId = key!.keyId;
      await a.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 1_000, reason: "" });
      await a.client.setSpendPolicy({ policy: { keyId, reset: "daily", budgetCredits: 20, capabilityCaps: [] }, clear: false });

      const holdOn = (replica: TestLedger) =>
        replica.client
          .holdCredits({ holdId: uid("hold"), userId, amountCredits: 1, ttlMs: 0, routeKey: "r", keyId, capabilityKey: "search.web" })
          .then(
            (res) => ({ ok: true as const, holdId: res.hold!.holdId }),
            (err: unknown) => ({ ok: false as const, code: fromServiceError(err).code }),
          );
      const burst = (n: number) => Promise.all(Array.from({ length: n }, (_, i) => holdOn(replicas[i % 3]!)));

      const first = await burst(60);
      expect(first.filter((r) => r.ok)).toHaveLength(20);
      expect(first.filter((r) => !r.ok).every((r) => !r.ok && r.code === "SPEND_LIMIT_EXCEEDED")).toBe(true);

      // Raised through b: c's next holds see it.
      await b.client.setSpendPolicy({ policy: { keyId, reset: "daily", budgetCredits: 25, capabilityCaps: [] }, clear: false });
      const raised = await Promise.all(Array.from({ length: 10 }, () => holdOn(c)));
      expect(raised.filter((r) => r.ok)).toHaveLength(5);

      // Five releases on the bus give five credits back.
      const released = first.filter((r) => r.ok).slice(0, 5) as { holdId: string }[];
      for (const { holdId } of released)
        await publishSettlement(a.nc, { holdId, userId, kind: SettlementKind.SETTLEMENT_KIND_RELEASE, capturedCredits: 0 });
      await waitFor(async () => (await store.getWallet(userId)).heldCredits === 20, { what: "the five releases applied" });
      const after = await burst(9);
      expect(after.filter((r) => r.ok)).toHaveLength(5);

      const { spendPolicies } = await c.client.getWallet({ userId, keyId });
      expect(spendPolicies).toEqual([expect.objectContaining({ spentCredits: 25, heldCredits: 25, remainingCredits: 0 })]);
      expect(await store.getWallet(userId)).toEqual({ userId, balanceCredits: 975, heldCredits: 25 });
      await assertLedgerConsistent(store);
    } finally {
      await Promise.all(replicas.map((r) => r.stop()));
    }
  });
});
