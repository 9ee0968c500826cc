// The LedgerStore contract, usage summary: sumUsage sums a user's charges in [from, to) per UTC day,
// capability, route and agent, and leaves out credit movements, other users and other ranges.
// Run by store.contract.test.ts against every store.
import { T0, at, usage, useContractStore, type StoreFactory } from "./support";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export function describeUsageSummaryContract(name: string, makeStore: StoreFactory): void {
  describe(`LedgerStore contract, usage summary: ${name}`, () => {
    const { store, grant, hold, settle } = useContractStore(makeStore);

    /** A settled charge of `credits` for `userId`, made at `when`. */
    async function charge(holdId: string, userId: string, credits: number, when: Date, extra: Parameters<typeof usage>[0] = {}) {
      await hold(holdId, userId, credits);
      await settle({ holdId, userId, kind: "capture", capturedCredits: credits, usage: usage({ createdAt: when, ...extra }) });
    }

    it("sums charges per UTC day, capability, route and agent within the range", async () => {
      await grant("u1", 1_000);
      await grant("u2", 1_000);
      await charge("h1", "u1", 10, at(HOUR), { agentName: "scout" });
      await charge("h2", "u1", 12, at(2 * HOUR), { agentName: "scout", routeKey: "email.send/postmark" });
      await charge("h3", "u1", 5, at(DAY + HOUR), { capabilityKey: "search.web", routeKey: "search.web/exa" });
      // Outside the range, another user's, and a credit movement: none counts.
      await charge("h4", "u1", 7, at(3 * DAY));
      await charge("h5", "u2", 9, at(HOUR));
      await store().moveCredits({
        kind: "refund",
        userId: "u1",
        amountCredits: 50,
        reason: "goodwill",
        reference: "ref-1",
        operator: "admin",
        now: at(HOUR),
      });

      const totals = await store().sumUsage("u1", { from: T0, to: at(2 * DAY) });
      const sorted = totals.sort((a, b) => (a.day + a.routeKey < b.day + b.routeKey ? -1 : 1));
      expect(sorted).toEqual([
        { day: "2030-01-01", capabilityKey: "email.send", routeKey: "email.send/postmark", agentName: "scout", credits: 12, count: 1 },
        { day: "2030-01-01", capabilityKey: "email.send", routeKey: "email.send/resend", agentName: "scout", credits: 10, count: 1 },
        { day: "2030-01-02", capabilityKey: "search.web", routeKey: "search.web/exa", credits: 5, count: 1 },
      ]);
    });

    it("filters by agent and by capability", async () => {
      await grant("u1", 1_000);
      await charge("h1", "u1", 10, at(HOUR), { agentName: "scout" });
      await charge("h2", "u1", 3, at(HOUR), { agentName: "closer" });
      await charge("h3", "u1", 4, at(HOUR), { agentName: "scout", capabilityKey: "search.web" });
      const range = { from: T0, to: at(DAY) };
      const sum = async (filter: object) => (await store().sumUsage("u1", { ...range, ...filter })).reduce((s, t) => s + t.credits, 0);
      await expect(sum({ agentName: "scout" })).resolves.toBe(14);
      await expect(sum({ capabilityKey: "email.send" })).resolves.toBe(13);
      await expect(sum({ agentName: "scout", capabilityKey: "email.send" })).resolves.toBe(10);
      await expect(store().sumUsage("nobody", range)).resolves.toEqual([]);
    });
  });
}
