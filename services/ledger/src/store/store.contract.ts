// The one behaviour suite every LedgerStore must pass: memory always, MongoDB when MONGODB_URI is
// set (`MONGODB_URI=mongodb://... npx jest src/store`). Each test gets a fresh, empty store.
import type { CreditMovementCommand, LedgerStore, SettleCommand } from "../domain/ports";
import type { PaymentDraft, UsageDraft, UsageItem, UsagePosition, UsageQuery, Wallet } from "../domain/types";
import { usagePosition } from "../domain/rules";

/** Creates an empty store; `dispose` runs after each test (drop the database, close clients). */
export type StoreFactory = () => Promise<{ store: LedgerStore; dispose?: () => Promise<void> }>;

const T0 = new Date("2030-01-01T00:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const MIN = 60_000;

function usage(overrides: Partial<UsageDraft> = {}): UsageDraft {
  return {
    usageId: `use_${Math.random().toString(36).slice(2)}`,
    createdAt: T0,
    productKey: "email",
    capabilityKey: "email.send",
    routeKey: "email.send/resend",
    provider: "resend",
    networkKey: "direct",
    status: "succeeded",
    durationMs: 12,
    traceId: "0af7651916cd43dd8448eb211c80319c",
    ...overrides,
  };
}

/** Balance and held credits equal the journal's sums, and neither is negative. */
async function expectWalletMatchesJournal(store: LedgerStore, userId: string): Promise<Wallet> {
  const wallet = await store.getWallet(userId);
  const entries = await store.listJournal(userId);
  expect(wallet.balanceCredits).toBeGreaterThanOrEqual(0);
  expect(wallet.heldCredits).toBeGreaterThanOrEqual(0);
  expect(entries.reduce((s, e) => s + e.amountCredits, 0)).toBe(wallet.balanceCredits);
  expect(entries.reduce((s, e) => s + e.heldDeltaCredits, 0)).toBe(wallet.heldCredits);
  return wallet;
}

export function describeLedgerStore(name: string, makeStore: StoreFactory): void {
  describe(`LedgerStore contract: ${name}`, () => {
    let store: LedgerStore;
    let dispose: (() => Promise<void>) | undefined;

    beforeEach(async () => {
      ({ store, dispose } = await makeStore());
    });
    afterEach(async () => {
      await dispose?.();
    });

    const grant = (userId: string, amountCredits: number, grantId = `grant_${userId}_${amountCredits}`) =>
      store.grant({ grantId, userId, amountCredits, reason: "test", now: T0 });
    const hold = (holdId: string, userId: string, amountCredits: number, expiresAt = at(2 * MIN)) =>
      store.hold({ holdId, userId, amountCredits, routeKey: "r", expiresAt, now: T0 });
    const settle = (cmd: Partial<SettleCommand> & Pick<SettleCommand, "holdId" | "kind">) =>
      store.settleHold({ userId: "u1", capturedCredits: 0, now: at(1_000), ...cmd });

    describe("wallets and grants", () => {
      it("reads a missing wallet as zero without creating it", async () => {
        await expect(store.getWallet("nobody")).resolves.toEqual({ userId: "nobody", balanceCredits: 0, heldCredits: 0 });
        await expect(store.listWallets()).resolves.toEqual([]);
      });

      it("grants once per grant id; a replay adds nothing; another user or amount conflicts", async () => {
        const first = await grant("u1", 500, "g1");
        expect(first).toMatchObject({ status: "granted", wallet: { balanceCredits: 500 } });
        await expect(grant("u1", 500, "g1")).resolves.toMatchObject({ status: "replayed", wallet: { balanceCredits: 500 } });
        await expect(grant("u2", 500, "g1")).resolves.toMatchObject({ status: "conflict" });
        await expect(grant("u1", 400, "g1")).resolves.toMatchObject({ status: "conflict" });
        await grant("u1", 250, "g2");
        expect(await expectWalletMatchesJournal(store, "u1")).toEqual({ userId: "u1", balanceCredits: 750, heldCredits: 0 });
        const journal = await store.listJournal("u1");
        expect(journal.map((e) => [e.kind, e.referenceId, e.amountCredits, e.heldDeltaCredits])).toEqual([
          ["grant", "g1", 500, 0],
          ["grant", "g2", 250, 0],
        ]);
      });

      it("applies concurrent grants with one id exactly once", async () => {
        const results = await Promise.all(Array.from({ length: 20 }, () => grant("u1", 100, "same")));
        expect(results.filter((r) => r.status === "granted")).toHaveLength(1);
        expect((await expectWalletMatchesJournal(store, "u1")).balanceCredits).toBe(100);
      });
    });

    describe("holds", () => {
      it("moves credits from balance to held, once per hold id", async () => {
        await grant("u1", 100);
        const created = await hold("h1", "u1", 30);
        expect(created).toMatchObject({
          status: "created",
          hold: { holdId: "h1", userId: "u1", amountCredits: 30, state: "held", capturedCredits: 0, routeKey: "r" },
          wallet: { balanceCredits: 70, heldCredits: 30 },
        });
        if (created.status !== "created") throw new Error("unreachable");
        expect(created.hold.createdAt).toEqual(T0);
        expect(created.hold.expiresAt).toEqual(at(2 * MIN));

        await expect(hold("h1", "u1", 30)).resolves.toMatchObject({ status: "replayed", wallet: { balanceCredits: 70, heldCredits: 30 } });
        await expect(hold("h1", "u1", 31)).resolves.toMatchObject({ status: "conflict" });
        await expect(hold("h1", "u2", 30)).resolves.toMatchObject({ status: "conflict" });
        await expect(store.getHold("h1")).resolves.toMatchObject({ state: "held", amountCredits: 30 });
        await expectWalletMatchesJournal(store, "u1");
      });

      it("refuses a hold the balance does not cover and writes nothing", async () => {
        await grant("u1", 10);
        await expect(hold("h1", "u1", 11)).resolves.toMatchObject({ status: "insufficient", wallet: { balanceCredits: 10 } });
        await expect(hold("h2", "nobody", 1)).resolves.toMatchObject({ status: "insufficient", wallet: { balanceCredits: 0 } });
        expect((await store.listWallets()).map((w) => w.userId)).toEqual(["u1"]); // no wallet created for "nobody"
        await expect(store.getHold("h1")).resolves.toBeNull();
        await expect(store.listJournal("u1")).resolves.toHaveLength(1);
        // A refused id can be used again once the wallet covers it.
        await grant("u1", 1, "topup");
        await expect(hold("h1", "u1", 11)).resolves.toMatchObject({ status: "created", wallet: { balanceCredits: 0, heldCredits: 11 } });
        await expectWalletMatchesJournal(store, "u1");
      });

      it("never lets concurrent holds take the balance below zero (200 holds, room for 50)", async () => {
        const price = 7;
        await grant("u1", 50 * price);
        const results = await Promise.all(Array.from({ length: 200 }, (_, i) => hold(`h${i}`, "u1", price)));
        expect(results.filter((r) => r.status === "created")).toHaveLength(50);
        expect(results.filter((r) => r.status === "insufficient")).toHaveLength(150);
        const wallet = await expectWalletMatchesJournal(store, "u1");
        expect(wallet).toEqual({ userId: "u1", balanceCredits: 0, heldCredits: 50 * price });
      });

      it("creates a hold id only once under concurrent retries", async () => {
        await grant("u1", 100);
        const results = await Promise.all(Array.from({ length: 20 }, () => hold("h1", "u1", 10)));
        expect(results.filter((r) => r.status === "created")).toHaveLength(1);
        expect(results.filter((r) => r.status === "replayed")).toHaveLength(19);
        expect((await expectWalletMatchesJournal(store, "u1")).balanceCredits).toBe(90);
      });

      it("lists expired held holds, oldest first, up to a limit", async () => {
        await grant("u1", 100);
        await hold("late", "u1", 1, at(3 * MIN));
        await hold("early", "u1", 1, at(1 * MIN));
        await hold("mid", "u1", 1, at(2 * MIN));
        await hold("settled", "u1", 1, at(0));
        await settle({ holdId: "settled", kind: "release" });
        expect((await store.listExpiredHolds(at(2 * MIN), 10)).map((h) => h.holdId)).toEqual(["early", "mid"]);
        expect((await store.listExpiredHolds(at(5 * MIN), 2)).map((h) => h.holdId)).toEqual(["early", "mid"]);
        await expect(store.listExpiredHolds(at(0), 10)).resolves.toEqual([]);
      });
    });

    describe("settlements", () => {
      beforeEach(async () => {
        await grant("u1", 100);
        await hold("h1", "u1", 40);
      });

      it("capture charges the captured amount and returns the rest", async () => {
        const result = await settle({ holdId: "h1", kind: "capture", capturedCredits: 25, usage: usage() });
        expect(result).toMatchObject({
          status: "applied",
          hold: { state: "captured", capturedCredits: 25 },
          wallet: { balanceCredits: 75, heldCredits: 0 },
          usageRecorded: true,
        });
        if (result.status !== "applied") throw new Error("unreachable");
        expect(result.hold.settledAt).toEqual(at(1_000));
        const capture = (await store.listJournal("u1")).find((e) => e.kind === "capture");
        expect(capture).toMatchObject({ referenceId: "h1", amountCredits: 15, heldDeltaCredits: -40 });
        await expectWalletMatchesJournal(store, "u1");
      });

      it("capture is clamped to 0..held amount", async () => {
        await expect(settle({ holdId: "h1", kind: "capture", capturedCredits: 1_000 })).resolves.toMatchObject({
          hold: { capturedCredits: 40 },
          wallet: { balanceCredits: 60, heldCredits: 0 },
        });
        await hold("h2", "u1", 10);
        await expect(settle({ holdId: "h2", kind: "capture", capturedCredits: -5 })).resolves.toMatchObject({
          hold: { capturedCredits: 0 },
          wallet: { balanceCredits: 60, heldCredits: 0 },
        });
        await expectWalletMatchesJournal(store, "u1");
      });

      it("release and expiry return the whole hold", async () => {
        await expect(settle({ holdId: "h1", kind: "release", usage: usage({ status: "failed" }) })).resolves.toMatchObject({
          status: "applied",
          hold: { state: "released", capturedCredits: 0 },
          wallet: { balanceCredits: 100, heldCredits: 0 },
        });
        await hold("h2", "u1", 10);
        await expect(settle({ holdId: "h2", kind: "expiry" })).resolves.toMatchObject({
          status: "applied",
          hold: { state: "expired" },
          usageRecorded: false,
          wallet: { balanceCredits: 100, heldCredits: 0 },
        });
        expect((await store.listJournal("u1")).map((e) => e.kind)).toEqual(["grant", "hold", "release", "hold", "expiry"]);
        await expectWalletMatchesJournal(store, "u1");
      });

      it("settles a hold at most once; the first settlement wins", async () => {
        await settle({ holdId: "h1", kind: "capture", capturedCredits: 10, usage: usage() });
        await expect(settle({ holdId: "h1", kind: "capture", capturedCredits: 10, usage: usage() })).resolves.toMatchObject({
          status: "already_settled",
          hold: { state: "captured" },
          usageRecorded: false,
        });
        await expect(settle({ holdId: "h1", kind: "release" })).resolves.toMatchObject({ status: "already_settled" });
        await expect(settle({ holdId: "h1", kind: "expiry" })).resolves.toMatchObject({ status: "already_settled" });
        expect((await store.listJournal("u1")).filter((e) => e.referenceId === "h1").map((e) => e.kind)).toEqual(["hold", "capture"]);
        await expect(store.listUsage("u1", 100)).resolves.toHaveLength(1);
        expect((await expectWalletMatchesJournal(store, "u1")).balanceCredits).toBe(90);
      });

      it("applies one of many concurrent settlements of the same hold", async () => {
        const results = await Promise.all([
          ...Array.from({ length: 10 }, () => settle({ holdId: "h1", kind: "capture", capturedCredits: 40, usage: usage() })),
          ...Array.from({ length: 10 }, () => settle({ holdId: "h1", kind: "expiry" })),
        ]);
        expect(results.filter((r) => r.status === "applied")).toHaveLength(1);
        expect((await store.listJournal("u1")).filter((e) => e.referenceId === "h1")).toHaveLength(2);
        await expectWalletMatchesJournal(store, "u1");
        expect((await store.listUsage("u1", 100)).length).toBeLessThanOrEqual(1);
      });

      it("a capture after expiry charges nothing but records its usage once, with 0 charged", async () => {
        await settle({ holdId: "h1", kind: "expiry" });
        const late = await settle({ holdId: "h1", kind: "capture", capturedCredits: 40, usage: usage({ usageId: "use_late" }) });
        expect(late).toMatchObject({ status: "already_settled", hold: { state: "expired", capturedCredits: 0 }, usageRecorded: true });
        expect((await expectWalletMatchesJournal(store, "u1")).balanceCredits).toBe(100);
        await expect(store.listUsage("u1", 10)).resolves.toMatchObject([{ usageId: "use_late", creditsCharged: 0, holdId: "h1" }]);
      });

      it("ignores a settlement for an unknown hold or of another user", async () => {
        await expect(settle({ holdId: "nope", kind: "capture", capturedCredits: 1, usage: usage() })).resolves.toEqual({
          status: "unknown_hold",
        });
        await expect(settle({ holdId: "h1", userId: "u2", kind: "capture", capturedCredits: 1, usage: usage() })).resolves.toMatchObject({
          status: "user_mismatch",
        });
        await expect(store.getHold("h1")).resolves.toMatchObject({ state: "held" });
        await expect(store.listUsage("u1", 10)).resolves.toEqual([]);
        await expect(store.listUsage("u2", 10)).resolves.toEqual([]);
        await expectWalletMatchesJournal(store, "u1");
      });
    });

    describe("usage", () => {
      it("lists newest first, at most limit, one item per hold with what it charged", async () => {
        await grant("u1", 1_000);
        for (let i = 0; i < 5; i++) {
          await hold(`h${i}`, "u1", 10);
          await settle({
            holdId: `h${i}`,
            kind: i % 2 ? "release" : "capture",
            capturedCredits: i,
            usage: usage({ usageId: `use_${i}`, createdAt: at(i * 1_000), agentName: i === 0 ? "scout" : undefined }),
          });
        }
        const items = await store.listUsage("u1", 3);
        expect(items.map((u) => [u.usageId, u.holdId, u.creditsCharged])).toEqual([
          ["use_4", "h4", 4],
          ["use_3", "h3", 0],
          ["use_2", "h2", 2],
        ]);
        const all = await store.listUsage("u1", 100);
        expect(all).toHaveLength(5);
        expect(all[4]).toMatchObject({ usageId: "use_0", agentName: "scout", userId: "u1", capabilityKey: "email.send", durationMs: 12 });
        expect(all[3]!.agentName).toBeUndefined();
        await expect(store.listUsage("u2", 10)).resolves.toEqual([]);
      });

      it("keeps the vendor's token counts of an item, and none where none were reported", async () => {
        await grant("u1", 100);
        await hold("h1", "u1", 13);
        await hold("h2", "u1", 10);
        await settle({
          holdId: "h1",
          kind: "capture",
          capturedCredits: 5,
          usage: usage({ usageId: "use_tokens", createdAt: at(1_000), inputTokens: 1000, outputTokens: 100 }),
        });
        await settle({ holdId: "h2", kind: "capture", capturedCredits: 10, usage: usage({ usageId: "use_plain", createdAt: at(2_000) }) });
        const [plain, tokens] = await store.listUsage("u1", 10);
        expect(tokens).toMatchObject({ usageId: "use_tokens", creditsCharged: 5, inputTokens: 1000, outputTokens: 100 });
        expect(plain).not.toHaveProperty("inputTokens");
        expect(plain).not.toHaveProperty("outputTokens");
      });
    });

    describe("credit movements: operators' grants, refunds and adjustments", () => {
      const move = (cmd: Partial<CreditMovementCommand> & Pick<CreditMovementCommand, "reference">) =>
        store.moveCredits({ kind: "grant", userId: "u1", amountCredits: 100, reason: "welcome", operator: "admin", now: T0, ...cmd });

      it("records each with who, why and when: one journal entry and one usage item of its kind", async () => {
        await expect(move({ reference: "g1", amountCredits: 500, operatorName: "ada", now: at(1_000) })).resolves.toMatchObject({
          status: "recorded",
          wallet: { balanceCredits: 500 },
          entry: {
            kind: "grant",
            referenceId: "g1",
            amountCredits: 500,
            heldDeltaCredits: 0,
            reason: "welcome",
            operator: "admin",
            operatorName: "ada",
            createdAt: at(1_000),
          },
        });
        await move({ reference: "r1", kind: "refund", amountCredits: 40, reason: "provider outage", now: at(2_000) });
        await move({ reference: "a1", kind: "adjustment", amountCredits: -15, reason: "double grant", now: at(3_000) });
        expect((await expectWalletMatchesJournal(store, "u1")).balanceCredits).toBe(525);
        const journal = await store.listJournal("u1");
        expect(journal.map((e) => [e.kind, e.referenceId, e.amountCredits, e.reason, e.operator, e.operatorName])).toEqual([
          ["grant", "g1", 500, "welcome", "admin", "ada"],
          ["refund", "r1", 40, "provider outage", "admin", undefined],
          ["adjustment", "a1", -15, "double grant", "admin", undefined],
        ]);
        const items = await store.listUsage("u1", 10);
        expect(items.map((u) => [u.kind, u.amountCredits, u.reference, u.reason, u.operator, u.creditsCharged, u.holdId])).toEqual([
          ["adjustment", -15, "a1", "double grant", "admin", 0, undefined],
          ["refund", 40, "r1", "provider outage", "admin", 0, undefined],
          ["grant", 500, "g1", "welcome", "admin", 0, undefined],
        ]);
        // A movement's item is its journal entry: same id, same time.
        expect(items[2]).toMatchObject({ usageId: journal[0]!.entryId, createdAt: at(1_000), userId: "u1", operatorName: "ada" });
        await expect(store.listUsage("u2", 10)).resolves.toEqual([]);
      });

      it("is idempotent on the reference: the same movement replays, anything else under it conflicts, a grant id included", async () => {
        await move({ reference: "g1" });
        await expect(move({ reference: "g1", reason: "retried", operatorName: "bob" })).resolves.toMatchObject({
          status: "replayed",
          wallet: { balanceCredits: 100 },
          entry: { reason: "welcome" },
        });
        await expect(move({ reference: "g1", userId: "u2" })).resolves.toMatchObject({ status: "conflict", entry: { userId: "u1" } });
        await expect(move({ reference: "g1", amountCredits: 99 })).resolves.toMatchObject({ status: "conflict" });
        await expect(move({ reference: "g1", kind: "refund" })).resolves.toMatchObject({ status: "conflict" });
        // GrantCredits' grant ids and movement references are one space: a reference is never two movements.
        await grant("u1", 7, "dev_grant");
        await expect(move({ reference: "dev_grant", amountCredits: 7 })).resolves.toMatchObject({ status: "replayed" });
        await expect(move({ reference: "dev_grant", kind: "adjustment", amountCredits: 7 })).resolves.toMatchObject({ status: "conflict" });
        await expect(grant("u1", 100, "g1")).resolves.toMatchObject({ status: "replayed" });
        expect((await expectWalletMatchesJournal(store, "u1")).balanceCredits).toBe(107);
        expect((await store.listUsage("u1", 10)).map((u) => u.reference)).toEqual(["g1"]);
      });

      it("never takes the available balance below zero: held credits are not available, and a refused movement writes nothing", async () => {
        await move({ reference: "g1", amountCredits: 50 });
        await hold("h1", "u1", 20);
        await expect(move({ reference: "a1", kind: "adjustment", amountCredits: -31 })).resolves.toEqual({
          status: "insufficient",
          wallet: { userId: "u1", balanceCredits: 30, heldCredits: 20 },
        });
        await expect(move({ reference: "r1", kind: "refund", amountCredits: -1, userId: "nobody" })).resolves.toMatchObject({
          status: "insufficient",
          wallet: { balanceCredits: 0 },
        });
        await expect(move({ reference: "a2", kind: "adjustment", amountCredits: -30, now: at(1_000) })).resolves.toMatchObject({
          status: "recorded",
          wallet: { balanceCredits: 0, heldCredits: 20 },
        });
        await expectWalletMatchesJournal(store, "u1");
        expect((await store.listJournal("u1")).map((e) => e.referenceId)).toEqual(["g1", "h1", "a2"]);
        expect((await store.listUsage("u1", 10)).map((u) => u.reference)).toEqual(["a2", "g1"]);
        await expect(store.listWallets()).resolves.toHaveLength(1);
      });

      it("records one movement per reference under concurrent retries, whatever their kinds", async () => {
        const kinds = Array.from({ length: 20 }, (_, i) => (["grant", "refund", "adjustment"] as const)[i % 3]!);
        const results = await Promise.all(kinds.map((kind) => move({ reference: "same", kind, amountCredits: 10 })));
        const winner = results.findIndex((r) => r.status === "recorded");
        expect(results.filter((r) => r.status === "recorded")).toHaveLength(1);
        // The others replay the winner when they asked for the same kind, and conflict otherwise.
        expect(results.map((r) => r.status)).toEqual(
          kinds.map((kind, i) => (i === winner ? "recorded" : kind === kinds[winner] ? "replayed" : "conflict")),
        );
        expect((await expectWalletMatchesJournal(store, "u1")).balanceCredits).toBe(10);
        await expect(store.listUsage("u1", 10)).resolves.toHaveLength(1);
      });

      it("sums grants (GrantCredits' too), refunds and adjustments per UTC day and kind, within [from, to)", async () => {
        const DAY = 24 * 60 * MIN;
        await store.grant({ grantId: "dev", userId: "u1", amountCredits: 5, reason: "dev_init", now: at(DAY - 1) });
        await move({ reference: "g1", amountCredits: 100, now: at(DAY - 1) });
        await move({ reference: "a1", kind: "adjustment", amountCredits: 30, now: at(DAY) });
        await move({ reference: "a2", kind: "adjustment", amountCredits: -20, now: at(DAY + 1) });
        await move({ reference: "r1", kind: "refund", amountCredits: 8, userId: "u2", now: at(2 * DAY) });
        await hold("h1", "u1", 10); // holds and their endings are not credit movements
        const sorted = (await store.sumCreditMovements({ from: T0, to: at(2 * DAY) })).sort((a, b) =>
          `${a.day}${a.kind}`.localeCompare(`${b.day}${b.kind}`),
        );
        expect(sorted).toEqual([
          { day: "2030-01-01", kind: "grant", movements: 2, addedCredits: 105, removedCredits: 0 },
          { day: "2030-01-02", kind: "adjustment", movements: 2, addedCredits: 30, removedCredits: 20 },
        ]);
        await expect(store.sumCreditMovements({ from: at(2 * DAY), to: at(3 * DAY) })).resolves.toEqual([
          { day: "2030-01-03", kind: "refund", movements: 1, addedCredits: 8, removedCredits: 0 },
        ]);
      });
    });

    describe("usage pages", () => {
      /** A settled hold of u1 whose usage item is created at `createdAt`. */
      const charged = async (holdId: string, createdAt: Date, draft: Partial<UsageDraft> = {}) => {
        await hold(holdId, "u1", 1);
        await settle({ holdId, kind: "capture", capturedCredits: 1, usage: usage({ usageId: `use_${holdId}`, createdAt, ...draft }) });
      };
      /** Every page of `query` with pages of `size`, following the last item's position. */
      const pages = async (size: number, query: UsageQuery = {}) => {
        const seen: UsageItem[][] = [];
        let after: UsagePosition | undefined;
        for (;;) {
          const page = await store.listUsage("u1", size, { ...query, ...(after ? { after } : {}) });
          if (!page.length) return seen;
          seen.push(page);
          after = usagePosition(page[page.length - 1]!);
        }
      };

      it("pages newest first by time, then key: items of the same instant each come once, in key order", async () => {
        await grant("u1", 100);
        for (const [holdId, ms] of [
          ["h_b", 1_000],
          ["h_a", 1_000],
          ["h_c", 1_000],
          ["h_d", 2_000],
          ["h_e", 0],
        ] as const)
          await charged(holdId, at(ms));
        await store.moveCredits({
          kind: "refund",
          userId: "u1",
          amountCredits: 3,
          reason: "r",
          reference: "ref",
          operator: "admin",
          now: at(1_500),
        });
        const all = await pages(2);
        expect(all.map((p) => p.length)).toEqual([2, 2, 2]);
        expect(all.flat().map((u) => u.holdId ?? u.kind)).toEqual(["h_d", "refund", "h_c", "h_b", "h_a", "h_e"]);
        expect((await pages(100)).flat()).toEqual(all.flat());
      });

      it("filters by time range [from, to), agent, capability and kind, alone and combined, across pages", async () => {
        await grant("u1", 100);
        await charged("h1", at(1_000), { agentName: "scout", capabilityKey: "email.send" });
        await charged("h2", at(2_000), { agentName: "scout", capabilityKey: "search.answer" });
        await charged("h3", at(3_000), { agentName: "other", capabilityKey: "email.send" });
        await charged("h4", at(4_000), { capabilityKey: "email.send" });
        await store.moveCredits({
          kind: "grant",
          userId: "u1",
          amountCredits: 3,
          reason: "r",
          reference: "g",
          operator: "admin",
          now: at(2_500),
        });
        const ids = async (query: UsageQuery) => (await pages(1, query)).flat().map((u) => u.holdId ?? u.reference);
        await expect(ids({ from: at(2_000), to: at(4_000) })).resolves.toEqual(["h3", "g", "h2"]);
        await expect(ids({ agentName: "scout" })).resolves.toEqual(["h2", "h1"]);
        await expect(ids({ capabilityKey: "email.send" })).resolves.toEqual(["h4", "h3", "h1"]);
        await expect(ids({ kind: "charge" })).resolves.toEqual(["h4", "h3", "h2", "h1"]);
        await expect(ids({ kind: "grant" })).resolves.toEqual(["g"]);
        await expect(ids({ kind: "refund" })).resolves.toEqual([]);
        await expect(ids({ capabilityKey: "email.send", from: at(1_001), kind: "charge" })).resolves.toEqual(["h4", "h3"]);
        await expect(ids({ agentName: "nobody" })).resolves.toEqual([]);
      });

      it("sees every item once while items are written between its pages, before and after its place", async () => {
        await grant("u1", 1_000);
        for (let i = 0; i < 30; i++) await charged(`h${String(i).padStart(2, "0")}`, at(i * 1_000));
        const seen: string[] = [];
        let after: UsagePosition | undefined;
        for (let n = 0; ; n++) {
          const page = await store.listUsage("u1", 4, after ? { after } : {});
          if (!page.length) break;
          seen.push(...page.map((u) => u.holdId!));
          after = usagePosition(page[page.length - 1]!);
          // A newer item (behind the cursor), an older one (ahead of it), and one at the cursor's own instant.
          await charged(`new_${n}_newer`, at(100_000 + n));
          await charged(`new_${n}_older`, at(-1_000 - n));
          await charged(`new_${n}_same`, after.createdAt);
        }
        expect(new Set(seen).size).toBe(seen.length);
        for (let i = 0; i < 30; i++) expect(seen).toContain(`h${String(i).padStart(2, "0")}`);
        expect(seen.some((id) => id.endsWith("_newer"))).toBe(false);
        expect(seen.filter((id) => id.endsWith("_older")).length).toBeGreaterThan(0);
      });
    });

    describe("API keys", () => {
      const record = (keyId: string, keyHash: string, userId = "u1") => ({
        keyId,
        userId,
        keyHash,
        prefix: "aak_abcd",
        name: "n",
        createdAt: T0,
      });

      it("stores a key once per hash and finds it by hash", async () => {
        await expect(store.insertApiKey(record("key_1", "hash1"))).resolves.toMatchObject({
          status: "created",
          record: { keyId: "key_1" },
        });
        await expect(store.insertApiKey(record("key_2", "hash1"))).resolves.toMatchObject({ status: "exists", record: { keyId: "key_1" } });
        await expect(store.findApiKeyByHash("hash1")).resolves.toMatchObject({ keyId: "key_1", userId: "u1", prefix: "aak_abcd" });
        await expect(store.findApiKeyByHash("other")).resolves.toBeNull();
      });

      it("lists by user and revokes once", async () => {
        await store.insertApiKey(record("key_1", "hash1", "u1"));
        await store.insertApiKey(record("key_2", "hash2", "u2"));
        expect((await store.listApiKeys()).map((k) => k.keyId).sort()).toEqual(["key_1", "key_2"]);
        expect((await store.listApiKeys("u2")).map((k) => k.keyId)).toEqual(["key_2"]);
        const revoked = await store.revokeApiKey("key_1", at(1_000));
        expect(revoked?.revokedAt).toEqual(at(1_000));
        expect((await store.revokeApiKey("key_1", at(2_000)))?.revokedAt).toEqual(at(1_000));
        expect((await store.findApiKeyByHash("hash1"))?.revokedAt).toEqual(at(1_000));
        await expect(store.revokeApiKey("key_nope", at(0))).resolves.toBeNull();
      });

      it("keeps a key's limits: set, replaced whole, cleared; read back by hash and in lists", async () => {
        await store.insertApiKey(record("key_1", "hash1"));
        await store.insertApiKey(record("key_2", "hash2"));
        expect(await store.findApiKeyByHash("hash1")).not.toHaveProperty("limits");

        const set = await store.setApiKeyLimits("key_1", { requestsPerSecond: 2, burst: 5, maxInFlight: 3 });
        expect(set).toMatchObject({ keyId: "key_1", limits: { requestsPerSecond: 2, burst: 5, maxInFlight: 3 } });
        await expect(store.findApiKeyByHash("hash1")).resolves.toMatchObject({
          limits: { requestsPerSecond: 2, burst: 5, maxInFlight: 3 },
        });
        // Replaced, not merged: the fields left out are gone (the gateway's defaults again).
        await store.setApiKeyLimits("key_1", { maxInFlight: 1 });
        expect((await store.findApiKeyByHash("hash1"))?.limits).toEqual({ maxInFlight: 1 });
        expect((await store.listApiKeys()).map((k) => [k.keyId, k.limits])).toEqual([
          ["key_1", { maxInFlight: 1 }],
          ["key_2", undefined],
        ]);

        const cleared = await store.setApiKeyLimits("key_1", undefined);
        expect(cleared).not.toHaveProperty("limits");
        expect(await store.findApiKeyByHash("hash1")).not.toHaveProperty("limits");
        await expect(store.setApiKeyLimits("key_nope", { burst: 1 })).resolves.toBeNull();
      });
    });

    describe("executions and their Idempotency-Keys", () => {
      const RETENTION = 24 * 60 * MIN;
      let n = 0;
      const claim = (requestHash: string, now: Date, key = "k1", userId = "u1", leaseMs = MIN, executionId = `exe_${++n}`) =>
        store.claimIdempotencyKey({
          userId,
          key,
          requestHash,
          executionId,
          capabilityKey: "email.send",
          leaseMs,
          retentionMs: RETENTION,
          now,
        });
      const holdFor = (holdId: string, executionId: string, now: Date, idempotencyKey?: string, userId = "u1") =>
        store.hold({
          holdId,
          userId,
          amountCredits: 10,
          routeKey: "email.send/resend",
          expiresAt: new Date(now.getTime() + 2 * MIN),
          now,
          execution: {
            executionId,
            capabilityKey: "email.send",
            leaseMs: MIN,
            retentionMs: RETENTION,
            ...(idempotencyKey ? { idempotencyKey } : {}),
          },
        });
      const ok = { httpStatus: 200, body: { success: true, creditsCharged: 10, data: { id: "m_1", tags: ["a"] } } };
      beforeEach(async () => {
        await store.grant({ grantId: "g", userId: "u1", amountCredits: 100, reason: "", now: T0 });
      });

      it("claims, then answers in_progress, conflict, and after completion the stored result", async () => {
        await expect(claim("hashA", T0, "k1", "u1", MIN, "exe_a")).resolves.toEqual({ state: "claimed", executionId: "exe_a" });
        await expect(claim("hashA", at(1_000))).resolves.toEqual({
          state: "in_progress",
          executionId: "exe_a",
          leaseExpiresAt: at(MIN),
          started: false,
        });
        await expect(claim("hashB", at(1_000))).resolves.toEqual({ state: "conflict" });
        await expect(claim("hashA", at(1_000), "k1", "u2", MIN, "exe_b")).resolves.toEqual({ state: "claimed", executionId: "exe_b" }); // keys are per user
        await expect(store.completeIdempotencyKey({ userId: "u1", key: "k1", result: ok, now: at(2_000) })).resolves.toBe("completed");
        await expect(store.completeIdempotencyKey({ userId: "u1", key: "k1", result: { httpStatus: 500 }, now: at(3_000) })).resolves.toBe(
          "already_completed",
        );
        await expect(claim("hashA", at(4_000))).resolves.toEqual({ state: "completed", executionId: "exe_a", result: ok });
        await expect(claim("hashB", at(4_000))).resolves.toEqual({ state: "conflict" });
        await expect(store.getExecution("exe_a")).resolves.toMatchObject({
          userId: "u1",
          idempotencyKey: "k1",
          state: "succeeded",
          result: ok,
          completedAt: at(2_000),
        });
      });

      it("lets a claim that held nothing be taken over once its lease ran out, under a new execution id", async () => {
        await claim("hashA", T0, "k1", "u1", MIN, "exe_old");
        await expect(claim("hashA", at(MIN), "k1", "u1", MIN, "exe_new")).resolves.toEqual({ state: "claimed", executionId: "exe_new" });
        await expect(claim("hashA", at(MIN + 1))).resolves.toEqual({
          state: "in_progress",
          executionId: "exe_new",
          leaseExpiresAt: at(2 * MIN),
          started: false,
        });
        // The first owner, late, can no longer start an attempt: its hold is fenced, nothing moves.
        await expect(holdFor("h_old", "exe_old", at(MIN + 2), "k1")).resolves.toMatchObject({ status: "fenced" });
        await expect(store.getWallet("u1")).resolves.toMatchObject({ balanceCredits: 100, heldCredits: 0 });
        await expect(store.getExecution("exe_old")).resolves.toBeNull();
      });

      it("never lets an execution that placed a hold run again, whatever its lease says", async () => {
        await claim("hashA", T0, "k1", "u1", MIN, "exe_a");
        await expect(holdFor("h1", "exe_a", at(1_000), "k1")).resolves.toMatchObject({ status: "created", hold: { executionId: "exe_a" } });
        await expect(store.getExecution("exe_a")).resolves.toMatchObject({ state: "running", holdIds: ["h1"] });
        // Long after the lease: still the same execution, started, never claimed again.
        await expect(claim("hashA", at(10 * MIN), "k1", "u1", MIN, "exe_retry")).resolves.toEqual({
          state: "in_progress",
          executionId: "exe_a",
          leaseExpiresAt: at(MIN),
          started: true,
        });
        await expect(store.countIndeterminateExecutions(at(10 * MIN))).resolves.toBe(1);
        await expect(store.countIndeterminateExecutions(at(MIN - 1))).resolves.toBe(0);
      });

      it("refuses a hold for a claim whose lease ran out before its first attempt", async () => {
        await claim("hashA", T0, "k1", "u1", MIN, "exe_a");
        await expect(holdFor("h1", "exe_a", at(MIN), "k1")).resolves.toMatchObject({ status: "fenced" });
        await expect(holdFor("h2", "exe_unknown", at(1), "k2")).resolves.toMatchObject({ status: "fenced" });
        await expect(store.getWallet("u1")).resolves.toMatchObject({ balanceCredits: 100, heldCredits: 0 });
      });

      it("records the outcome in the same step as the capture that charges it", async () => {
        await claim("hashA", T0, "k1", "u1", MIN, "exe_a");
        await holdFor("h1", "exe_a", at(1), "k1");
        const settled = await store.settleHold({
          holdId: "h1",
          userId: "u1",
          kind: "capture",
          capturedCredits: 10,
          outcome: ok,
          now: at(2),
        });
        expect(settled.status).toBe("applied");
        await expect(store.getExecution("exe_a")).resolves.toMatchObject({ state: "succeeded", result: ok });
        await expect(claim("hashA", at(10 * MIN))).resolves.toEqual({ state: "completed", executionId: "exe_a", result: ok });
        // A redelivery changes nothing; a later completion does not replace the first.
        await store.settleHold({
          holdId: "h1",
          userId: "u1",
          kind: "capture",
          capturedCredits: 10,
          outcome: { httpStatus: 502 },
          now: at(3),
        });
        await expect(store.completeIdempotencyKey({ userId: "u1", key: "k1", result: { httpStatus: 500 }, now: at(4) })).resolves.toBe(
          "already_completed",
        );
        await expect(store.getExecution("exe_a")).resolves.toMatchObject({ state: "succeeded", result: ok });
        await expect(store.getWallet("u1")).resolves.toMatchObject({ balanceCredits: 90, heldCredits: 0 });
        await expectWalletMatchesJournal(store, "u1");
      });

      it("creates an execution without a key at its first hold and keeps its attempts", async () => {
        await expect(holdFor("h1", "exe_x", T0)).resolves.toMatchObject({ status: "created" });
        await store.settleHold({ holdId: "h1", userId: "u1", kind: "release", capturedCredits: 0, now: at(1) });
        await expect(holdFor("h2", "exe_x", at(2))).resolves.toMatchObject({ status: "created" });
        await expect(store.getExecution("exe_x")).resolves.toMatchObject({
          userId: "u1",
          state: "running",
          holdIds: ["h1", "h2"],
          capabilityKey: "email.send",
        });
        await expect(store.completeExecution({ userId: "u2", executionId: "exe_x", result: ok, now: at(3) })).resolves.toBe("not_found");
        await expect(
          store.completeExecution({ userId: "u1", executionId: "exe_x", result: { httpStatus: 502 }, now: at(3) }),
        ).resolves.toBe("completed");
        await expect(store.getExecution("exe_x")).resolves.toMatchObject({ state: "failed" });
        // An ended execution starts no attempt; another user's hold never joins it.
        await expect(holdFor("h3", "exe_x", at(4))).resolves.toMatchObject({ status: "fenced" });
        await expect(holdFor("h4", "exe_x", at(4), undefined, "u2")).resolves.toMatchObject({ status: "fenced" });
      });

      it("abandons a running execution only once its lease and grace passed and none of its holds is held", async () => {
        await claim("hashA", T0, "k1", "u1", MIN, "exe_a");
        await holdFor("h1", "exe_a", at(1), "k1");
        const grace = 2 * MIN;
        // Held hold: never abandoned, a capture may still come.
        await expect(store.listAbandonedExecutions(at(10 * MIN), grace, 10)).resolves.toEqual([]);
        await expect(store.abandonExecution({ executionId: "exe_a", graceMs: grace, now: at(10 * MIN) })).resolves.toBeNull();
        await store.settleHold({ holdId: "h1", userId: "u1", kind: "expiry", capturedCredits: 0, now: at(2 * MIN) });
        await expect(store.listAbandonedExecutions(at(MIN + grace - 1), grace, 10)).resolves.toEqual([]);
        await expect(store.listAbandonedExecutions(at(MIN + grace), grace, 10)).resolves.toMatchObject([{ executionId: "exe_a" }]);
        const abandoned = await store.abandonExecution({ executionId: "exe_a", graceMs: grace, now: at(MIN + grace) });
        expect(abandoned).toMatchObject({
          state: "outcome_unknown",
          result: { httpStatus: 502, body: { code: "EXECUTION_OUTCOME_UNKNOWN" } },
        });
        await expect(store.abandonExecution({ executionId: "exe_a", graceMs: grace, now: at(MIN + grace) })).resolves.toBeNull();
        await expect(claim("hashA", at(20 * MIN))).resolves.toMatchObject({
          state: "completed",
          executionId: "exe_a",
          result: { httpStatus: 502 },
        });
        await expect(store.countIndeterminateExecutions(at(20 * MIN))).resolves.toBe(0);
        await expect(store.getWallet("u1")).resolves.toMatchObject({ balanceCredits: 100, heldCredits: 0 });
      });

      it("gives one claim to concurrent requests", async () => {
        const results = await Promise.all(Array.from({ length: 20 }, () => claim("hashA", T0)));
        expect(results.filter((r) => r.state === "claimed")).toHaveLength(1);
        expect(results.filter((r) => r.state === "in_progress")).toHaveLength(19);
      });

      it("places one first hold when a late owner and a new claim race", async () => {
        await claim("hashA", T0, "k1", "u1", MIN, "exe_old");
        const [late, retry] = await Promise.all([
          holdFor("h_old", "exe_old", at(MIN), "k1"),
          claim("hashA", at(MIN), "k1", "u1", MIN, "exe_new"),
        ]);
        expect(late.status).toBe("fenced"); // past its lease: an owner that late never starts
        expect(retry).toEqual({ state: "claimed", executionId: "exe_new" });
      });

      it("forgets records after 24 hours", async () => {
        await claim("hashA", T0);
        await store.completeIdempotencyKey({ userId: "u1", key: "k1", result: { httpStatus: 201 }, now: at(1) });
        await expect(claim("hashB", at(RETENTION - 1))).resolves.toEqual({ state: "conflict" });
        await expect(claim("hashB", at(RETENTION), "k1", "u1", MIN, "exe_later")).resolves.toEqual({
          state: "claimed",
          executionId: "exe_later",
        });
      });

      it("completes only a claimed key", async () => {
        await expect(store.completeIdempotencyKey({ userId: "u1", key: "never", result: { httpStatus: 200 }, now: T0 })).resolves.toBe(
          "not_found",
        );
        await expect(store.getExecution("exe_none")).resolves.toBeNull();
      });
    });

    describe("what settlements book: resources, outgoing payments, platform losses", () => {
      const DAY = 24 * 60 * MIN;
      const holdOn = (holdId: string, userId = "u1", routeKey = "geo.time.current.timeapi.mpp", now = T0, amountCredits = 10) =>
        store.hold({
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
        await expect(store.getOwnedResource("email.inbox", "ada@agentmail.to")).resolves.toEqual({
          ...inbox,
          userId: "u1",
          holdId: "h1",
          executionId: "exe_h1",
          createdAt: at(1_000),
        });
        await expect(
          settle({ holdId: "h1", kind: "capture", capturedCredits: 10, resources: [inbox], now: at(2_000) }),
        ).resolves.toMatchObject({ status: "already_settled", booked: { resourceConflicts: [] } });
        await expect(store.getOwnedResource("email.inbox", "ada@agentmail.to")).resolves.toMatchObject({
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
        await expect(store.getOwnedResource("email.inbox", "ada@agentmail.to")).resolves.toMatchObject({ userId: "u1" });
        await expect(store.getOwnedResource("email.inbox", "nobody@agentmail.to")).resolves.toBeNull();
        await expect(store.getOwnedResource("other.kind", "ada@agentmail.to")).resolves.toBeNull();
      });

      it("books a capture's payment once, with its hold's route and execution, and no loss", async () => {
        await holdOn("h1");
        const first = await settle({ holdId: "h1", kind: "capture", capturedCredits: 10, payments: [payment()] });
        expect(first).toMatchObject({ status: "applied", booked: { payments: [{ paymentId: "h1/0" }], losses: [] } });
        const again = await settle({ holdId: "h1", kind: "capture", capturedCredits: 10, payments: [payment()], now: at(5_000) });
        expect(again).toMatchObject({ status: "already_settled", booked: { payments: [], losses: [] } });
        await expect(store.listPayments(all)).resolves.toEqual([
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
        await expect(store.listPlatformLosses(all)).resolves.toEqual([]);
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
        const losses = await store.listPlatformLosses(all);
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
        await expect(store.listPayments(all)).resolves.toHaveLength(4);
        await expectWalletMatchesJournal(store, "u1");
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
        await expect(store.getOwnedResource("email.inbox", "ada@agentmail.to")).resolves.toMatchObject({ userId: "u1" });
        await expect(store.listPlatformLosses(all)).resolves.toMatchObject([
          { paymentId: "h1/0", reason: "capture_after_hold_expired", amountMicroUsd: 1000, createdAt: at(4 * MIN) },
        ]);
        expect((await expectWalletMatchesJournal(store, "u1")).balanceCredits).toBe(1_000);
      });

      it("books a payment of concurrent redeliveries once, with one loss", async () => {
        await holdOn("h1");
        await Promise.all(
          Array.from({ length: 10 }, () =>
            settle({ holdId: "h1", kind: "release", payments: [payment(), payment({ reference: "0xdef" })] }),
          ),
        );
        await expect(store.listPayments(all)).resolves.toMatchObject([{ paymentId: "h1/0" }, { paymentId: "h1/1", reference: "0xdef" }]);
        await expect(store.listPlatformLosses(all)).resolves.toHaveLength(2);
      });

      it("books nothing for a settlement of an unknown hold or of another user", async () => {
        await holdOn("h1");
        await settle({ holdId: "nope", kind: "release", payments: [payment()], resources: [inbox] });
        await settle({ holdId: "h1", userId: "u2", kind: "capture", capturedCredits: 10, payments: [payment()], resources: [inbox] });
        await expect(store.listPayments(all)).resolves.toEqual([]);
        await expect(store.listPlatformLosses(all)).resolves.toEqual([]);
        await expect(store.getOwnedResource("email.inbox", "ada@agentmail.to")).resolves.toBeNull();
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
        expect(sortBy(await store.sumCharges(all))).toEqual([
          { day: "2030-01-01", routeKey: "r.mpp", chargedCredits: 4, captures: 1 },
          { day: "2030-01-02", routeKey: "r.direct", chargedCredits: 7, captures: 1 },
          { day: "2030-01-02", routeKey: "r.mpp", chargedCredits: 10, captures: 1 },
        ]);
        expect(
          sortBy(await store.sumPayments(all))
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
        await expect(store.sumCharges({ from: at(DAY), to: at(DAY + 1_000) })).resolves.toEqual([]);
        expect((await store.listPayments(second)).map((p) => p.holdId)).toEqual(["b", "c"]);
        expect((await store.listPlatformLosses(second)).map((l) => [l.holdId, l.reason])).toEqual([
          ["c", "seller_rejected_signed_payment"],
        ]);
        await expect(store.listPayments({ from: T0, to: day1 })).resolves.toEqual([]);
      });
    });
  });
}
