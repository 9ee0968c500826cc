// Recommend is free: many recommends leave the wallet balance and the journal exactly as they were.
import { startRouterSystem, type RouterSystem } from "../system";

const USER = "user-free";

describe("recommend never moves a balance", () => {
  let sys: RouterSystem;
  beforeAll(async () => {
    sys = await startRouterSystem({ grants: { [USER]: 500 } });
  });
  afterAll(() => sys?.stop());

  it("leaves balance, holds and journal unchanged after many recommends", async () => {
    const before = await sys.ledger.client.getWallet({ userId: USER });
    const journalBefore = await sys.ledger.client.listJournal({ userId: USER });
    expect(before.wallet?.balanceCredits).toBe(500);
    expect(journalBefore.entries.length).toBeGreaterThan(0);

    const asks = [
      { domainKey: "email", capabilityId: "send", input: { optimizationPreferences: ["cost"], tracking: true } },
      { domainKey: "email", capabilityId: "inbox-buy", input: {} },
      { domainKey: "text", capabilityId: "analyze", input: { agentName: "a" } },
      { domainKey: "geo", capabilityId: "time-current", input: { optimizationPreferences: ["speed"] } },
    ];
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        sys.router.client.recommend({ userId: USER, optimizationPreferences: [], ...asks[i % asks.length]! }),
      ),
    );
    expect(responses.every((r) => r.success)).toBe(true);

    const after = await sys.ledger.client.getWallet({ userId: USER });
    const journalAfter = await sys.ledger.client.listJournal({ userId: USER });
    expect(after.wallet).toEqual(before.wallet);
    expect(journalAfter.entries).toEqual(journalBefore.entries);
    await sys.ledger.assertConsistent([USER]);
  });
});
