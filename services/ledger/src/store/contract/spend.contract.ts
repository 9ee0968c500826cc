// The spend-policy and quote part of the LedgerStore contract: every store checks and counts a key's
// (and an agent's) policies inside its hold operation, and draws a quote's reservation in that same
// operation. Run by store.contract.test.ts against every store.
import type { HoldCommand, LedgerStore } from "../../domain/ports";
import { MAX_OPEN_QUOTES_PER_KEY } from "../../domain/quote";
import type { SpendPolicy } from "../../domain/spend-policy";
import type { StoreFactory } from "./support";

const T0 = new Date("2030-01-07T10:00:00.000Z"); // a Monday
const at = (ms: number) => new Date(T0.getTime() + ms);
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

export function describeSpendPolicyContract(name: string, makeStore: StoreFactory): void {
  describe(`LedgerStore contract, spend policies and quotes: ${name}`, () => {
    let store: LedgerStore;
    let dispose: (() => Promise<void>) | undefined;

    beforeEach(async () => {
      ({ store, dispose } = await makeStore());
      await store.grant({ grantId: "g1", userId: "u1", amountCredits: 1_000, reason: "test", now: T0 });
    });
    afterEach(async () => {
      await dispose?.();
    });

    const policy = (fields: Partial<SpendPolicy> = {}): Promise<SpendPolicy> =>
      store.setSpendPolicy({ keyId: "k1", reset: "daily", capabilityCaps: [], createdAt: T0, updatedAt: T0, ...fields });
    const hold = (
      holdId: string,
      amountCredits: number,
      extra: Partial<HoldCommand> & { agentName?: string; capabilityKey?: string } = {},
    ) => {
      const { agentName, capabilityKey = "search.web", now = T0, ...rest } = extra;
      return store.hold({
        holdId,
        userId: "u1",
        amountCredits,
        routeKey: "r",
        expiresAt: new Date(now.getTime() + 10 * MIN),
        now,
        spend: { keyId: "k1", ...(agentName !== undefined ? { agentName } : {}), capabilityKey },
        ...rest,
      });
    };
    const settle = (holdId: string, kind: "capture" | "release", capturedCredits = 0) =>
      store.settleHold({ holdId, userId: "u1", kind, capturedCredits, now: at(MIN) });

    it("lets exactly the budget through under 30 concurrent holds, refusing the rest with nothing written", async () => {
      await policy({ budgetCredits: 10 });
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => hold(`h${i}`, 1)));
      expect(results.filter((r) => r.status === "created")).toHaveLength(10);
      const refused = results.filter((r) => r.status === "spend_refused");
      expect(refused).toHaveLength(20);
      expect(refused[0]).toMatchObject({
        refusal: {
          code: "SPEND_LIMIT_EXCEEDED",
          limit: "budget",
          limitValue: 10,
          remaining: 0,
          resetsAt: new Date("2030-01-08T00:00:00.000Z"),
        },
      });
      expect(await store.getWallet("u1")).toEqual({ userId: "u1", balanceCredits: 990, heldCredits: 10 });
      expect((await store.listJournal("u1")).filter((e) => e.kind === "hold")).toHaveLength(10);
      expect(await store.spendUsage({ keyId: "k1" }, at(-DAY))).toMatchObject({ spentCredits: 10, heldCredits: 10 });
    });

    it("counts a hold while held, gives a release back and counts a capture at what it captured", async () => {
      await policy({ budgetCredits: 10 });
      expect((await hold("a", 6)).status).toBe("created");
      expect(await hold("b", 5)).toMatchObject({ status: "spend_refused", refusal: { remaining: 4 } });
      await settle("a", "release");
      expect((await hold("b", 5)).status).toBe("created");
      await settle("b", "capture", 2);
      expect((await hold("c", 8)).status).toBe("created");
      expect(await hold("d", 1)).toMatchObject({ status: "spend_refused", refusal: { remaining: 0 } });
      expect(await store.spendUsage({ keyId: "k1" }, at(-DAY))).toMatchObject({ spentCredits: 10, heldCredits: 8 });
    });

    it("starts a new budget with each calendar period (daily, weekly from Monday, monthly), none never resets", async () => {
      await policy({ budgetCredits: 5 });
      expect((await hold("d1", 5)).status).toBe("created");
      expect((await hold("d2", 1, { now: at(13 * 60 * MIN) })).status).toBe("spend_refused"); // 23:00 the same day
      expect((await hold("d3", 5, { now: at(14 * 60 * MIN) })).status).toBe("created"); // 00:00 the next day
      await policy({ budgetCredits: 5, reset: "weekly" });
      expect((await hold("w1", 1, { now: at(3 * DAY) })).status).toBe("spend_refused"); // Thursday: d1 and d3 count
      expect((await hold("w2", 5, { now: at(7 * DAY) })).status).toBe("created"); // the next Monday
      await policy({ budgetCredits: 20, reset: "monthly" });
      expect(await hold("m1", 6, { now: at(8 * DAY) })).toMatchObject({
        status: "spend_refused",
        refusal: { remaining: 5, resetsAt: new Date("2030-02-01T00:00:00.000Z") },
      });
      await policy({ budgetCredits: 20, reset: "none" });
      expect(await hold("n1", 6, { now: at(40 * DAY) })).toMatchObject({ status: "spend_refused", refusal: { remaining: 5 } });
      const refused = await hold("n2", 6, { now: at(40 * DAY) });
      expect(refused.status === "spend_refused" && refused.refusal.resetsAt).toBe(undefined);
    });

    it("keeps each agent's policy to its own holds, while the key-wide budget counts them all", async () => {
      await policy({ budgetCredits: 8 });
      await policy({ agentName: "alpha", budgetCredits: 3 });
      await policy({ agentName: "beta", budgetCredits: 5 });
      expect((await hold("a1", 3, { agentName: "alpha" })).status).toBe("created");
      expect(await hold("a2", 1, { agentName: "alpha" })).toMatchObject({
        status: "spend_refused",
        refusal: { agentName: "alpha", limit: "budget" },
      });
      expect((await hold("b1", 5, { agentName: "beta" })).status).toBe("created");
      // beta's policy is spent too; the key-wide one has nothing left for anyone else.
      expect(await hold("x1", 1)).toMatchObject({ status: "spend_refused", refusal: { limit: "budget", remaining: 0 } });
      expect(await hold("g1", 1, { agentName: "gamma" })).toMatchObject({ status: "spend_refused", refusal: { limitValue: 8 } });
      expect((await store.listSpendPolicies(["k1"])).map((p) => p.agentName ?? "")).toEqual(["", "alpha", "beta"]);
    });

    it("counts every agent without a policy of its own, none named included, against the default agent policy, together", async () => {
      await policy({ otherAgents: true, budgetCredits: 10 });
      await policy({ agentName: "alpha", budgetCredits: 100 });
      // alpha has its own policy: the default one neither covers nor counts it.
      expect((await hold("a1", 50, { agentName: "alpha" })).status).toBe("created");
      expect((await hold("b1", 4, { agentName: "beta" })).status).toBe("created");
      expect((await hold("n1", 3)).status).toBe("created");
      // A fresh name gets no fresh budget: beta, no name and gamma share the 10.
      expect(await hold("g1", 4, { agentName: "gamma" })).toMatchObject({
        status: "spend_refused",
        refusal: { otherAgents: true, limit: "budget", limitValue: 10, remaining: 3 },
      });
      expect((await hold("g2", 3, { agentName: "gamma" })).status).toBe("created");
      expect((await hold("d1", 1, { agentName: "delta" })).status).toBe("spend_refused");
      expect((await hold("a2", 40, { agentName: "alpha" })).status).toBe("created");
      expect(await store.spendUsage({ keyId: "k1", exceptAgentNames: ["alpha"] }, at(-DAY))).toMatchObject({ spentCredits: 10 });
      expect(await store.spendUsage({ keyId: "k1", agentName: "" }, at(-DAY))).toMatchObject({ spentCredits: 3 });
      // Listed after the key-wide policy, before the agents'; cleared on its own.
      await policy({ budgetCredits: 1_000 });
      expect((await store.listSpendPolicies(["k1"])).map((p) => [p.agentName ?? "", p.otherAgents ?? false])).toEqual([
        ["", false],
        ["", true],
        ["alpha", false],
      ]);
      expect(await store.clearSpendPolicy("k1", undefined, true)).toBe(true);
      expect((await store.listSpendPolicies(["k1"])).map((p) => [p.agentName ?? "", p.otherAgents ?? false])).toEqual([
        ["", false],
        ["alpha", false],
      ]);
      expect((await hold("d2", 1, { agentName: "delta" })).status).toBe("created");
    });

    it("caps one capability by count and by credits, leaving the others alone", async () => {
      await policy({
        capabilityCaps: [
          { capabilityKey: "search.web", maxCount: 2 },
          { capabilityKey: "email.send", maxCredits: 10 },
        ],
      });
      expect((await hold("s1", 1)).status).toBe("created");
      expect((await hold("s2", 1)).status).toBe("created");
      expect(await hold("s3", 1)).toMatchObject({
        status: "spend_refused",
        refusal: { limit: "capability_count", capabilityKey: "search.web", remaining: 0 },
      });
      await settle("s1", "release"); // a released hold gives its count back
      expect((await hold("s4", 1)).status).toBe("created");
      expect((await hold("e1", 7, { capabilityKey: "email.send" })).status).toBe("created");
      expect(await hold("e2", 4, { capabilityKey: "email.send" })).toMatchObject({
        status: "spend_refused",
        refusal: { limit: "capability_credits", remaining: 3 },
      });
      expect((await hold("o1", 50, { capabilityKey: "time.current" })).status).toBe("created");
    });

    it("gives an expired hold's credits back, and a capture after its expiry counts nothing", async () => {
      await policy({ budgetCredits: 10 });
      expect((await hold("x1", 10)).status).toBe("created");
      expect((await hold("x2", 1)).status).toBe("spend_refused");
      await store.settleHold({ holdId: "x1", userId: "u1", kind: "expiry", capturedCredits: 0, now: at(MIN) });
      await settle("x1", "capture", 10); // late: already ended
      expect(await store.spendUsage({ keyId: "k1" }, at(-DAY))).toMatchObject({ spentCredits: 0, heldCredits: 0 });
      expect((await hold("x3", 10)).status).toBe("created");
    });

    it("refuses a single hold above the maximum price, writing nothing", async () => {
      await policy({ maxPriceCredits: 5 });
      const before = await store.listJournal("u1");
      expect(await hold("p1", 6)).toMatchObject({ status: "spend_refused", refusal: { code: "PRICE_ABOVE_MAX", limitValue: 5 } });
      expect(await store.getHold("p1")).toBeNull();
      expect(await store.listJournal("u1")).toHaveLength(before.length);
      expect((await hold("p2", 5)).status).toBe("created");
    });

    it("applies a changed or cleared policy to the next hold; a replaced policy keeps its first createdAt", async () => {
      await policy({ budgetCredits: 1 });
      expect((await hold("c1", 1)).status).toBe("created");
      expect((await hold("c2", 1)).status).toBe("spend_refused");
      const raised = await policy({ budgetCredits: 2, createdAt: at(MIN), updatedAt: at(MIN) });
      expect(raised.createdAt).toEqual(T0);
      expect(raised.updatedAt).toEqual(at(MIN));
      expect((await hold("c3", 1)).status).toBe("created");
      expect(await store.clearSpendPolicy("k1")).toBe(true);
      expect(await store.clearSpendPolicy("k1")).toBe(false);
      expect((await hold("c4", 500)).status).toBe("created");
    });

    describe("quotes", () => {
      const quote = (quoteId: string, amountCredits: number, expiresAt = at(5 * MIN)) =>
        store.createQuote({
          quoteId,
          userId: "u1",
          keyId: "k1",
          capabilityKey: "search.web",
          routeKey: "r",
          amountCredits,
          requestHash: "h",
          createdAt: T0,
          expiresAt,
          now: T0,
        });

      it("reserves the credits once per quote id, and the open reservation counts against the key's budget", async () => {
        await policy({ budgetCredits: 10 });
        expect(await quote("q1", 8)).toMatchObject({ status: "created", wallet: { balanceCredits: 992, heldCredits: 8 } });
        expect(await quote("q1", 8)).toMatchObject({ status: "replayed", wallet: { balanceCredits: 992 } });
        expect(await quote("q1", 9)).toMatchObject({ status: "conflict" });
        expect(await store.spendUsage({ keyId: "k1" }, at(-DAY))).toMatchObject({ spentCredits: 8, heldCredits: 8 });
        expect(await quote("q2", 5)).toMatchObject({ status: "spend_refused", refusal: { limit: "budget", remaining: 2 } });
        expect(await hold("h1", 5)).toMatchObject({ status: "spend_refused" });
        await store.clearSpendPolicy("k1");
        expect(await quote("q3", 5_000)).toMatchObject({ status: "insufficient" });
        expect((await store.getQuote("q1"))?.reservation).toMatchObject({ state: "held", amountCredits: 8, keyId: "k1" });
      });

      it("lets ten quotes from a key with a 50-credit budget reserve at most 50 credits, concurrent or not", async () => {
        await policy({ budgetCredits: 50 });
        const results = await Promise.all(Array.from({ length: 10 }, (_, i) => quote(`q${i}`, 8)));
        expect(results.filter((r) => r.status === "created")).toHaveLength(6);
        expect(results.filter((r) => r.status === "spend_refused")).toHaveLength(4);
        expect(await store.getWallet("u1")).toEqual({ userId: "u1", balanceCredits: 952, heldCredits: 48 });
        expect(await store.spendUsage({ keyId: "k1" }, at(-DAY))).toMatchObject({ spentCredits: 48 });
      });

      it("caps a key's open quotes; a drawn or expired one is no longer open", async () => {
        const open = await Promise.all(Array.from({ length: MAX_OPEN_QUOTES_PER_KEY }, (_, i) => quote(`q${i}`, 1)));
        expect(open.every((r) => r.status === "created")).toBe(true);
        expect(await quote("one-more", 1)).toEqual({
          status: "too_many_open_quotes",
          open: MAX_OPEN_QUOTES_PER_KEY,
          limit: MAX_OPEN_QUOTES_PER_KEY,
        });
        expect(await store.getQuote("one-more")).toBeNull();
        expect(await hold("h0", 1, { quoteId: "q0" })).toMatchObject({ status: "created" });
        expect(await quote("one-more", 1)).toMatchObject({ status: "created" });
        expect(await quote("and-another", 1)).toMatchObject({ status: "too_many_open_quotes" });
        // Past their expiry the open ones no longer count.
        expect(
          await store.createQuote({
            quoteId: "later",
            userId: "u1",
            keyId: "k1",
            capabilityKey: "search.web",
            routeKey: "r",
            amountCredits: 1,
            requestHash: "h",
            createdAt: at(5 * MIN),
            expiresAt: at(10 * MIN),
            now: at(5 * MIN),
          }),
        ).toMatchObject({ status: "created" });
      });

      it("is drawn by one hold in one step, counted by the policy then, and never twice", async () => {
        await policy({ budgetCredits: 10 });
        await quote("q1", 8);
        const results = await Promise.all([hold("h1", 8, { quoteId: "q1" }), hold("h2", 8, { quoteId: "q1" })]);
        expect(results.map((r) => r.status).sort()).toEqual(["created", "quote_refused"]);
        expect(results.find((r) => r.status === "quote_refused")).toMatchObject({ reason: "used" });
        expect(await store.getWallet("u1")).toEqual({ userId: "u1", balanceCredits: 992, heldCredits: 8 });
        const found = await store.getQuote("q1");
        expect(found?.quote.usedByHoldId).toMatch(/^h[12]$/);
        expect(found?.reservation?.state).toBe("released");
        // The reservation's 8 credits moved to the hold: counted once, by the hold.
        expect(await store.spendUsage({ keyId: "k1" }, at(-DAY))).toMatchObject({ spentCredits: 8, heldCredits: 8 });
      });

      it("refuses a draw of an expired, another user's or a differently priced quote, and a draw the policy refuses, writing nothing", async () => {
        await quote("q1", 8, at(MIN));
        await quote("q2", 8);
        expect(await hold("h1", 8, { quoteId: "q1", now: at(MIN) })).toMatchObject({ status: "quote_refused", reason: "expired" });
        expect(await hold("h2", 7, { quoteId: "q2" })).toMatchObject({ status: "quote_refused", reason: "amount_mismatch" });
        expect(await hold("h3", 8, { quoteId: "nope" })).toMatchObject({ status: "quote_refused", reason: "not_found" });
        await store.grant({ grantId: "g2", userId: "u2", amountCredits: 100, reason: "test", now: T0 });
        expect(
          await store.hold({ holdId: "h4", userId: "u2", amountCredits: 8, routeKey: "r", expiresAt: at(MIN), now: T0, quoteId: "q2" }),
        ).toMatchObject({
          status: "quote_refused",
          reason: "not_found",
        });
        await policy({ maxPriceCredits: 5 });
        expect(await hold("h5", 8, { quoteId: "q2" })).toMatchObject({ status: "spend_refused" });
        expect((await store.getQuote("q2"))?.reservation?.state).toBe("held");
        expect(await store.getWallet("u1")).toEqual({ userId: "u1", balanceCredits: 984, heldCredits: 16 });
      });

      it("gives an unused quote's credits back through the hold expiry", async () => {
        await quote("q1", 8, at(MIN));
        const due = await store.listExpiredHolds(at(MIN), 10);
        expect(due.map((h) => h.holdId)).toEqual(["quote:q1"]);
        await store.settleHold({ holdId: "quote:q1", userId: "u1", kind: "expiry", capturedCredits: 0, now: at(MIN) });
        expect(await store.getWallet("u1")).toEqual({ userId: "u1", balanceCredits: 1_000, heldCredits: 0 });
        expect((await store.getQuote("q1"))?.reservation?.state).toBe("expired");
      });
    });
  });
}
