// The LedgerStore contract, books: What settlements book besides money: resources (one owner), outgoing payments (once), platform losses (paid, not charged), and the sums.
// Run by store.contract.test.ts against every store.
import type { PaymentDraft } from "../../domain/types";
import { T0, at, MIN, usage, expectWalletMatchesJournal, useContractStore, type StoreFactory } from "./support";

export function describeBooksContract(name: string, makeStore: StoreFactory): void {
  describe(`LedgerStore contract, books: ${name}`, () => {
    const { store, grant, hold, settle } = useContractStore(makeStore);
    const DAY = 24 * 60 * MIN;

    describe("what settlements book: resources, outgoing payments, platform losses", () => {
      const holdOn = (holdId: string, userId = "u1", routeKey = "geo.time.current.timeapi.mpp", now = T0, amountCredits = 10) =>
        store().hold({
          holdId,
          userId,
          amountCredits,
          routeKey,
          expiresAt: new Date(now.getTime() + 2 * MIN),
          now,
          execution: { executionId: `exe_${holdId}`, capabilityKey: "geo.time.current", leaseMs: MIN, retentionMs: DAY },
        });
      const payment = (overrides: Partial<PaymentDraft> = {}): PaymentDraft => ({
        rail: "mpp",
        network: "eip155:84532",
        asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
        amountAtomic: "1000",
        amountMicroUsd: 1000,
        payTo: "0x2222222222222222222222222222222222222222",
        payer: "0x1111111111111111111111111111111111111111",
        reference: "0xabc",
        settlement: "settled",
        ...overrides,
      });
      const inbox = { kind: "email.inbox", resourceId: "ada@agentmail.to", provider: "agentmail" };
      const all = { from: T0, to: at(10 * DAY) };
      beforeEach(async () => {
        await grant("u1", 1_000);
        await grant("u2", 1_000);
      });

      it("makes a capture's resources the hold's user's, once; the first owner stays", async () => {
        await holdOn("h1");
        const first = await settle({ holdId: "h1", kind: "capture", capturedCredits: 10, resources: [inbox] });
        expect(first).toMatchObject({ status: "applied", booked: { resourceConflicts: [] } });
        await expect(store().getOwnedResource("email.inbox", "ada@agentmail.to")).resolves.toEqual({
          ...inbox,
          userId: "u1",
          holdId: "h1",
          executionId: "exe_h1",
          createdAt: at(1_000),
        });
        await expect(
          settle({ holdId: "h1", kind: "capture", capturedCredits: 10, resources: [inbox], now: at(2_000) }),
        ).resolves.toMatchObject({ status: "already_settled", booked: { resourceConflicts: [] } });
        await expect(store().getOwnedResource("email.inbox", "ada@agentmail.to")).resolves.toMatchObject({
          userId: "u1",
          createdAt: at(1_000),
        });
        // Another user's capture naming the same resource does not take it; the conflict is reported.
        await holdOn("h2", "u2");
        await expect(
          settle({ holdId: "h2", userId: "u2", kind: "capture", capturedCredits: 10, resources: [inbox] }),
        ).resolves.toMatchObject({
          status: "applied",
          booked: { resourceConflicts: [{ userId: "u1", resourceId: "ada@agentmail.to" }] },
        });
        await expect(store().getOwnedResource("email.inbox", "ada@agentmail.to")).resolves.toMatchObject({ userId: "u1" });
        await expect(store().getOwnedResource("email.inbox", "nobody@agentmail.to")).resolves.toBeNull();
        await expect(store().getOwnedResource("other.kind", "ada@agentmail.to")).resolves.toBeNull();
      });

      it("books a capture's payment once, with its hold's route and execution, and no loss", async () => {
        await holdOn("h1");
        const first = await settle({ holdId: "h1", kind: "capture", capturedCredits: 10, payments: [payment()] });
        expect(first).toMatchObject({ status: "applied", booked: { payments: [{ paymentId: "h1/0" }], losses: [] } });
        const again = await settle({ holdId: "h1", kind: "capture", capturedCredits: 10, payments: [payment()], now: at(5_000) });
        expect(again).toMatchObject({ status: "already_settled", booked: { payments: [], losses: [] } });
        await expect(store().listPayments(all)).resolves.toEqual([
          {
            ...payment(),
            paymentId: "h1/0",
            holdId: "h1",
            userId: "u1",
            executionId: "exe_h1",
            routeKey: "geo.time.current.timeapi.mpp",
            bookedAt: at(1_000),
          },
        ]);
        await expect(store().listPlatformLosses(all)).resolves.toEqual([]);
      });

      it("writes a loss with the release of a paid attempt, in the same operation, once, with a reason per settlement", async () => {
        for (const [holdId, settlement, reason] of [
          ["h1", "settled", "paid_attempt_released"],
          ["h2", "unconfirmed", "paid_attempt_released"],
          ["h3", "rejected", "seller_rejected_signed_payment"],
          ["h4", "unknown", "payment_outcome_unknown"],
        ] as const) {
          await holdOn(holdId);
          const released = await settle({
            holdId,
            kind: "release",
            usage: usage({ status: "failed", errorCode: "PROVIDER_ERROR" }),
            payments: [payment({ settlement })],
          });
          expect(released).toMatchObject({
            status: "applied",
            booked: { payments: [{ paymentId: `${holdId}/0` }], losses: [{ paymentId: `${holdId}/0`, reason }] },
          });
          await expect(settle({ holdId, kind: "release", payments: [payment({ settlement })] })).resolves.toMatchObject({
            booked: { payments: [], losses: [] },
          });
        }
        const losses = await store().listPlatformLosses(all);
        expect(losses.map((l) => [l.paymentId, l.reason, l.settlement])).toEqual([
          ["h1/0", "paid_attempt_released", "settled"],
          ["h2/0", "paid_attempt_released", "unconfirmed"],
          ["h3/0", "seller_rejected_signed_payment", "rejected"],
          ["h4/0", "payment_outcome_unknown", "unknown"],
        ]);
        expect(losses[0]).toEqual({
          paymentId: "h1/0",
          reason: "paid_attempt_released",
          amountMicroUsd: 1000,
          holdId: "h1",
          executionId: "exe_h1",
          userId: "u1",
          routeKey: "geo.time.current.timeapi.mpp",
          rail: "mpp",
          network: "eip155:84532",
          amountAtomic: "1000",
          reference: "0xabc",
          settlement: "settled",
          errorCode: "PROVIDER_ERROR",
          createdAt: at(1_000),
        });
        await expect(store().listPayments(all)).resolves.toHaveLength(4);
        await expectWalletMatchesJournal(store(), "u1");
      });

      it("books a capture that arrives after its hold expired as paid and lost, charging nothing", async () => {
        await holdOn("h1");
        await settle({ holdId: "h1", kind: "expiry", now: at(3 * MIN) });
        const late = await settle({
          holdId: "h1",
          kind: "capture",
          capturedCredits: 10,
          payments: [payment()],
          resources: [inbox],
          now: at(4 * MIN),
        });
        expect(late).toMatchObject({
          status: "already_settled",
          hold: { state: "expired" },
          booked: { payments: [{ paymentId: "h1/0" }], losses: [{ reason: "capture_after_hold_expired" }] },
        });
        // The user got the answer, so the resource is theirs although nothing was charged.
        await expect(store().getOwnedResource("email.inbox", "ada@agentmail.to")).resolves.toMatchObject({ userId: "u1" });
        await expect(store().listPlatformLosses(all)).resolves.toMatchObject([
          { paymentId: "h1/0", reason: "capture_after_hold_expired", amountMicroUsd: 1000, createdAt: at(4 * MIN) },
        ]);
        expect((await expectWalletMatchesJournal(store(), "u1")).balanceCredits).toBe(1_000);
      });

      it("books a payment of concurrent redeliveries once, with one loss", async () => {
        await holdOn("h1");
        await Promise.all(
          Array.from({ length: 10 }, () =>
            settle({ holdId: "h1", kind: "release", payments: [payment(), payment({ reference: "0xdef" })] }),
          ),
        );
        await expect(store().listPayments(all)).resolves.toMatchObject([{ paymentId: "h1/0" }, { paymentId: "h1/1", reference: "0xdef" }]);
        await expect(store().listPlatformLosses(all)).resolves.toHaveLength(2);
      });

      it("books nothing for a settlement of an unknown hold or of another user", async () => {
        await holdOn("h1");
        await settle({ holdId: "nope", kind: "release", payments: [payment()], resources: [inbox] });
        await settle({ holdId: "h1", userId: "u2", kind: "capture", capturedCredits: 10, payments: [payment()], resources: [inbox] });
        await expect(store().listPayments(all)).resolves.toEqual([]);
        await expect(store().listPlatformLosses(all)).resolves.toEqual([]);
        await expect(store().getOwnedResource("email.inbox", "ada@agentmail.to")).resolves.toBeNull();
      });

      it("sums charges and payments per UTC day and route, within [from, to)", async () => {
        const day1 = at(DAY - 2_000); // 2030-01-01 23:59:58
        const day2 = at(DAY + 1_000); // 2030-01-02 00:00:01
        await holdOn("a", "u1", "r.mpp", day1);
        await holdOn("b", "u1", "r.mpp", day1);
        await holdOn("c", "u2", "r.mpp", day1);
        await holdOn("d", "u1", "r.direct", day1);
        await settle({ holdId: "a", kind: "capture", capturedCredits: 4, payments: [payment({ amountMicroUsd: 2_500 })], now: day1 });
        await settle({ holdId: "b", kind: "capture", capturedCredits: 10, payments: [payment({ amountMicroUsd: 1_000 })], now: day2 });
        await settle({
          holdId: "c",
          userId: "u2",
          kind: "release",
          payments: [payment({ amountMicroUsd: 700, settlement: "rejected" })],
          now: day2,
        });
        await settle({ holdId: "d", kind: "capture", capturedCredits: 7, now: day2 });
        const sortBy = <T extends { day: string; routeKey: string }>(xs: T[]) =>
          [...xs].sort((x, y) => `${x.day}${x.routeKey}`.localeCompare(`${y.day}${y.routeKey}`));
        expect(sortBy(await store().sumCharges(all))).toEqual([
          { day: "2030-01-01", routeKey: "r.mpp", chargedCredits: 4, captures: 1 },
          { day: "2030-01-02", routeKey: "r.direct", chargedCredits: 7, captures: 1 },
          { day: "2030-01-02", routeKey: "r.mpp", chargedCredits: 10, captures: 1 },
        ]);
        expect(
          sortBy(await store().sumPayments(all))
            .map((p) => [p.day, p.routeKey, p.settlement, p.amountMicroUsd, p.payments])
            .sort(),
        ).toEqual(
          [
            ["2030-01-01", "r.mpp", "settled", 2_500, 1],
            ["2030-01-02", "r.mpp", "rejected", 700, 1],
            ["2030-01-02", "r.mpp", "settled", 1_000, 1],
          ].sort(),
        );
        // The range is [from, to): the second day alone.
        const second = { from: at(DAY), to: at(2 * DAY) };
        await expect(store().sumCharges({ from: at(DAY), to: at(DAY + 1_000) })).resolves.toEqual([]);
        expect((await store().listPayments(second)).map((p) => p.holdId)).toEqual(["b", "c"]);
        expect((await store().listPlatformLosses(second)).map((l) => [l.holdId, l.reason])).toEqual([
          ["c", "seller_rejected_signed_payment"],
        ]);
        await expect(store().listPayments({ from: T0, to: day1 })).resolves.toEqual([]);
      });
    });

    it("books uncharged vendor work on our key once per hold, lists it among the losses at risk, and counts it per user and day for the allowance", async () => {
      await grant("u1", 100);
      const work = { reason: "PROVIDER_TIMEOUT", estimatedCostMicroUsd: 10_000 };
      await hold("w1", "u1", 10);
      const first = await settle({
        holdId: "w1",
        kind: "release",
        usage: usage({ status: "failed", errorCode: "PROVIDER_TIMEOUT" }),
        unchargedWork: work,
      });
      expect(first).toMatchObject({
        status: "applied",
        booked: { losses: [{ reason: "vendor_work_not_charged", holdId: "w1", userId: "u1", routeKey: "r" }] },
      });
      expect(await settle({ holdId: "w1", kind: "release", unchargedWork: work })).toMatchObject({
        status: "already_settled",
        booked: { losses: [] },
      });
      const losses = await store().listPlatformLosses({ from: T0, to: at(DAY) });
      expect(losses).toEqual([
        expect.objectContaining({
          paymentId: "w1/vendor",
          reason: "vendor_work_not_charged",
          rail: "direct",
          settlement: "unknown",
          amountMicroUsd: 10_000,
          errorCode: "PROVIDER_TIMEOUT",
        }),
      ]);
      await expect(store().listPayments({ from: T0, to: at(DAY) })).resolves.toEqual([]);
      // The day's allowance of one is used: the next hold is refused, writing nothing; the next UTC day it is not.
      const refused = await store().hold({
        holdId: "w2",
        userId: "u1",
        amountCredits: 10,
        routeKey: "r",
        expiresAt: at(MIN),
        now: at(2_000),
        unchargedAllowance: 1,
      });
      expect(refused).toEqual({ status: "uncharged_limit", count: 1, limit: 1 });
      await expect(store().getHold("w2")).resolves.toBeNull();
      const tomorrow = await store().hold({
        holdId: "w3",
        userId: "u1",
        amountCredits: 10,
        routeKey: "r",
        expiresAt: at(DAY + MIN),
        now: at(DAY),
        unchargedAllowance: 1,
      });
      expect(tomorrow.status).toBe("created");
      // Another user's count is its own.
      await grant("u2", 100);
      const other = await store().hold({
        holdId: "w4",
        userId: "u2",
        amountCredits: 10,
        routeKey: "r",
        expiresAt: at(MIN),
        now: at(2_000),
        unchargedAllowance: 1,
      });
      expect(other.status).toBe("created");
    });
  });
}
