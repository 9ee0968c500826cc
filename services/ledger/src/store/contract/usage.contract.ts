// The LedgerStore contract, usage and credit movements: Usage items (one per settled hold, paged by a keyset cursor) and operators' credit movements (one per reference).
// Run by store.contract.test.ts against every store.
import type { CreditMovementCommand } from "../../domain/ports";
import type { UsageDraft, UsageItem, UsagePosition, UsageQuery } from "../../domain/types";
import { usagePosition } from "../../domain/rules";
import { T0, at, MIN, usage, expectWalletMatchesJournal, useContractStore, type StoreFactory } from "./support";

export function describeUsageContract(name: string, makeStore: StoreFactory): void {
  describe(`LedgerStore contract, usage and credit movements: ${name}`, () => {
    const { store, grant, hold, settle } = useContractStore(makeStore);

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
        const items = await store().listUsage("u1", 3);
        expect(items.map((u) => [u.usageId, u.holdId, u.creditsCharged])).toEqual([
          ["use_4", "h4", 4],
          ["use_3", "h3", 0],
          ["use_2", "h2", 2],
        ]);
        const all = await store().listUsage("u1", 100);
        expect(all).toHaveLength(5);
        expect(all[4]).toMatchObject({ usageId: "use_0", agentName: "scout", userId: "u1", capabilityKey: "email.send", durationMs: 12 });
        expect(all[3]!.agentName).toBeUndefined();
        await expect(store().listUsage("u2", 10)).resolves.toEqual([]);
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
        const [plain, tokens] = await store().listUsage("u1", 10);
        expect(tokens).toMatchObject({ usageId: "use_tokens", creditsCharged: 5, inputTokens: 1000, outputTokens: 100 });
        expect(plain).not.toHaveProperty("inputTokens");
        expect(plain).not.toHaveProperty("outputTokens");
      });
    });

    describe("credit movements: operators' grants, refunds and adjustments", () => {
      const move = (cmd: Partial<CreditMovementCommand> & Pick<CreditMovementCommand, "reference">) =>
        store().moveCredits({ kind: "grant", userId: "u1", amountCredits: 100, reason: "welcome", operator: "admin", now: T0, ...cmd });

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
        expect((await expectWalletMatchesJournal(store(), "u1")).balanceCredits).toBe(525);
        const journal = await store().listJournal("u1");
        expect(journal.map((e) => [e.kind, e.referenceId, e.amountCredits, e.reason, e.operator, e.operatorName])).toEqual([
          ["grant", "g1", 500, "welcome", "admin", "ada"],
          ["refund", "r1", 40, "provider outage", "admin", undefined],
          ["adjustment", "a1", -15, "double grant", "admin", undefined],
        ]);
        const items = await store().listUsage("u1", 10);
        expect(items.map((u) => [u.kind, u.amountCredits, u.reference, u.reason, u.operator, u.creditsCharged, u.holdId])).toEqual([
          ["adjustment", -15, "a1", "double grant", "admin", 0, undefined],
          ["refund", 40, "r1", "provider outage", "admin", 0, undefined],
          ["grant", 500, "g1", "welcome", "admin", 0, undefined],
        ]);
        // A movement's item is its journal entry: same id, same time.
        expect(items[2]).toMatchObject({ usageId: journal[0]!.entryId, createdAt: at(1_000), userId: "u1", operatorName: "ada" });
        await expect(store().listUsage("u2", 10)).resolves.toEqual([]);
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
        expect((await expectWalletMatchesJournal(store(), "u1")).balanceCredits).toBe(107);
        expect((await store().listUsage("u1", 10)).map((u) => u.reference)).toEqual(["g1"]);
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
        await expectWalletMatchesJournal(store(), "u1");
        expect((await store().listJournal("u1")).map((e) => e.referenceId)).toEqual(["g1", "h1", "a2"]);
        expect((await store().listUsage("u1", 10)).map((u) => u.reference)).toEqual(["a2", "g1"]);
        await expect(store().listWallets()).resolves.toHaveLength(1);
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
        expect((await expectWalletMatchesJournal(store(), "u1")).balanceCredits).toBe(10);
        await expect(store().listUsage("u1", 10)).resolves.toHaveLength(1);
      });

      it("sums grants (GrantCredits' too), refunds and adjustments per UTC day and kind, within [from, to)", async () => {
        const DAY = 24 * 60 * MIN;
        await store().grant({ grantId: "dev", userId: "u1", amountCredits: 5, reason: "dev_init", now: at(DAY - 1) });
        await move({ reference: "g1", amountCredits: 100, now: at(DAY - 1) });
        await move({ reference: "a1", kind: "adjustment", amountCredits: 30, now: at(DAY) });
        await move({ reference: "a2", kind: "adjustment", amountCredits: -20, now: at(DAY + 1) });
        await move({ reference: "r1", kind: "refund", amountCredits: 8, userId: "u2", now: at(2 * DAY) });
        await hold("h1", "u1", 10); // holds and their endings are not credit movements
        const sorted = (await store().sumCreditMovements({ from: T0, to: at(2 * DAY) })).sort((a, b) =>
          `${a.day}${a.kind}`.localeCompare(`${b.day}${b.kind}`),
        );
        expect(sorted).toEqual([
          { day: "2030-01-01", kind: "grant", movements: 2, addedCredits: 105, removedCredits: 0 },
          { day: "2030-01-02", kind: "adjustment", movements: 2, addedCredits: 30, removedCredits: 20 },
        ]);
        await expect(store().sumCreditMovements({ from: at(2 * DAY), to: at(3 * DAY) })).resolves.toEqual([
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
          const page = await store().listUsage("u1", size, { ...query, ...(after ? { after } : {}) });
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
        await store().moveCredits({
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
        await store().moveCredits({
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
          const page = await store().listUsage("u1", 4, after ? { after } : {});
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
  });
}
