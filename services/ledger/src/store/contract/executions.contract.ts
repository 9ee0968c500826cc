// The LedgerStore contract, executions: Executions and their Idempotency-Keys: one claim per key, fenced holds, outcomes recorded with the capture.
// Run by store.contract.test.ts against every store.
import { T0, at, MIN, expectWalletMatchesJournal, useContractStore, type StoreFactory } from "./support";

export function describeExecutionsContract(name: string, makeStore: StoreFactory): void {
  describe(`LedgerStore contract, executions: ${name}`, () => {
    const { store } = useContractStore(makeStore);

    describe("executions and their Idempotency-Keys", () => {
      const RETENTION = 24 * 60 * MIN;
      let n = 0;
      const claim = (requestHash: string, now: Date, key = "k1", userId = "u1", leaseMs = MIN, executionId = `exe_${++n}`) =>
        store().claimIdempotencyKey({
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
        store().hold({
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
        await store().grant({ grantId: "g", userId: "u1", amountCredits: 100, reason: "", now: T0 });
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
        await expect(store().completeIdempotencyKey({ userId: "u1", key: "k1", result: ok, now: at(2_000) })).resolves.toBe("completed");
        await expect(
          store().completeIdempotencyKey({ userId: "u1", key: "k1", result: { httpStatus: 500 }, now: at(3_000) }),
        ).resolves.toBe("already_completed");
        await expect(claim("hashA", at(4_000))).resolves.toEqual({ state: "completed", executionId: "exe_a", result: ok });
        await expect(claim("hashB", at(4_000))).resolves.toEqual({ state: "conflict" });
        await expect(store().getExecution("exe_a")).resolves.toMatchObject({
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
        await expect(store().getWallet("u1")).resolves.toMatchObject({ balanceCredits: 100, heldCredits: 0 });
        await expect(store().getExecution("exe_old")).resolves.toBeNull();
      });

      it("never lets an execution that placed a hold run again, whatever its lease says", async () => {
        await claim("hashA", T0, "k1", "u1", MIN, "exe_a");
        await expect(holdFor("h1", "exe_a", at(1_000), "k1")).resolves.toMatchObject({ status: "created", hold: { executionId: "exe_a" } });
        await expect(store().getExecution("exe_a")).resolves.toMatchObject({ state: "running", holdIds: ["h1"] });
        // Long after the lease: still the same execution, started, never claimed again.
        await expect(claim("hashA", at(10 * MIN), "k1", "u1", MIN, "exe_retry")).resolves.toEqual({
          state: "in_progress",
          executionId: "exe_a",
          leaseExpiresAt: at(MIN),
          started: true,
        });
        await expect(store().countIndeterminateExecutions(at(10 * MIN))).resolves.toBe(1);
        await expect(store().countIndeterminateExecutions(at(MIN - 1))).resolves.toBe(0);
      });

      it("refuses a hold for a claim whose lease ran out before its first attempt", async () => {
        await claim("hashA", T0, "k1", "u1", MIN, "exe_a");
        await expect(holdFor("h1", "exe_a", at(MIN), "k1")).resolves.toMatchObject({ status: "fenced" });
        await expect(holdFor("h2", "exe_unknown", at(1), "k2")).resolves.toMatchObject({ status: "fenced" });
        await expect(store().getWallet("u1")).resolves.toMatchObject({ balanceCredits: 100, heldCredits: 0 });
      });

      it("records the outcome in the same step as the capture that charges it", async () => {
        await claim("hashA", T0, "k1", "u1", MIN, "exe_a");
        await holdFor("h1", "exe_a", at(1), "k1");
        const settled = await store().settleHold({
          holdId: "h1",
          userId: "u1",
          kind: "capture",
          capturedCredits: 10,
          outcome: ok,
          now: at(2),
        });
        expect(settled.status).toBe("applied");
        await expect(store().getExecution("exe_a")).resolves.toMatchObject({ state: "succeeded", result: ok });
        await expect(claim("hashA", at(10 * MIN))).resolves.toEqual({ state: "completed", executionId: "exe_a", result: ok });
        // A redelivery changes nothing; a later completion does not replace the first.
        await store().settleHold({
          holdId: "h1",
          userId: "u1",
          kind: "capture",
          capturedCredits: 10,
          outcome: { httpStatus: 502 },
          now: at(3),
        });
        await expect(store().completeIdempotencyKey({ userId: "u1", key: "k1", result: { httpStatus: 500 }, now: at(4) })).resolves.toBe(
          "already_completed",
        );
        await expect(store().getExecution("exe_a")).resolves.toMatchObject({ state: "succeeded", result: ok });
        await expect(store().getWallet("u1")).resolves.toMatchObject({ balanceCredits: 90, heldCredits: 0 });
        await expectWalletMatchesJournal(store(), "u1");
      });

      it("creates an execution without a key at its first hold and keeps its attempts", async () => {
        await expect(holdFor("h1", "exe_x", T0)).resolves.toMatchObject({ status: "created" });
        await store().settleHold({ holdId: "h1", userId: "u1", kind: "release", capturedCredits: 0, now: at(1) });
        await expect(holdFor("h2", "exe_x", at(2))).resolves.toMatchObject({ status: "created" });
        await expect(store().getExecution("exe_x")).resolves.toMatchObject({
          userId: "u1",
          state: "running",
          holdIds: ["h1", "h2"],
          capabilityKey: "email.send",
        });
        await expect(store().completeExecution({ userId: "u2", executionId: "exe_x", result: ok, now: at(3) })).resolves.toBe("not_found");
        await expect(
          store().completeExecution({ userId: "u1", executionId: "exe_x", result: { httpStatus: 502 }, now: at(3) }),
        ).resolves.toBe("completed");
        await expect(store().getExecution("exe_x")).resolves.toMatchObject({ state: "failed" });
        // An ended execution starts no attempt; another user's hold never joins it.
        await expect(holdFor("h3", "exe_x", at(4))).resolves.toMatchObject({ status: "fenced" });
        await expect(holdFor("h4", "exe_x", at(4), undefined, "u2")).resolves.toMatchObject({ status: "fenced" });
      });

      it("abandons a running execution only once its lease and grace passed and none of its holds is held", async () => {
        await claim("hashA", T0, "k1", "u1", MIN, "exe_a");
        await holdFor("h1", "exe_a", at(1), "k1");
        const grace = 2 * MIN;
        // Held hold: never abandoned, a capture may still come.
        await expect(store().listAbandonedExecutions(at(10 * MIN), grace, 10)).resolves.toEqual([]);
        await expect(store().abandonExecution({ executionId: "exe_a", graceMs: grace, now: at(10 * MIN) })).resolves.toBeNull();
        await store().settleHold({ holdId: "h1", userId: "u1", kind: "expiry", capturedCredits: 0, now: at(2 * MIN) });
        await expect(store().listAbandonedExecutions(at(MIN + grace - 1), grace, 10)).resolves.toEqual([]);
        await expect(store().listAbandonedExecutions(at(MIN + grace), grace, 10)).resolves.toMatchObject([{ executionId: "exe_a" }]);
        const abandoned = await store().abandonExecution({ executionId: "exe_a", graceMs: grace, now: at(MIN + grace) });
        expect(abandoned).toMatchObject({
          state: "outcome_unknown",
          result: { httpStatus: 502, body: { code: "EXECUTION_OUTCOME_UNKNOWN" } },
        });
        await expect(store().abandonExecution({ executionId: "exe_a", graceMs: grace, now: at(MIN + grace) })).resolves.toBeNull();
        await expect(claim("hashA", at(20 * MIN))).resolves.toMatchObject({
          state: "completed",
          executionId: "exe_a",
          result: { httpStatus: 502 },
        });
        await expect(store().countIndeterminateExecutions(at(20 * MIN))).resolves.toBe(0);
        await expect(store().getWallet("u1")).resolves.toMatchObject({ balanceCredits: 100, heldCredits: 0 });
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
        await store().completeIdempotencyKey({ userId: "u1", key: "k1", result: { httpStatus: 201 }, now: at(1) });
        await expect(claim("hashB", at(RETENTION - 1))).resolves.toEqual({ state: "conflict" });
        await expect(claim("hashB", at(RETENTION), "k1", "u1", MIN, "exe_later")).resolves.toEqual({
          state: "claimed",
          executionId: "exe_later",
        });
      });

      describe("a claim and the first hold in one step", () => {
        const claimAndHold = (holdId: string, executionId: string, now: Date, amountCredits = 10, requestHash = "hashA", key = "k1") =>
          store().claimAndHold({
            claim: { userId: "u1", key, requestHash, executionId, capabilityKey: "email.send", leaseMs: MIN, retentionMs: RETENTION, now },
            hold: {
              holdId,
              userId: "u1",
              amountCredits,
              routeKey: "email.send/resend",
              expiresAt: new Date(now.getTime() + 2 * MIN),
              now,
              execution: { executionId, capabilityKey: "email.send", idempotencyKey: key, leaseMs: MIN, retentionMs: RETENTION },
            },
          });

        it("claims the key and holds for its execution, which is then started: a retry waits, nothing runs twice", async () => {
          const first = await claimAndHold("h1", "exe_1", T0);
          expect(first).toMatchObject({ claim: { state: "claimed", executionId: "exe_1" }, hold: { status: "created" } });
          await expect(store().getWallet("u1")).resolves.toMatchObject({ balanceCredits: 90, heldCredits: 10 });
          await expect(store().getExecution("exe_1")).resolves.toMatchObject({ state: "running", idempotencyKey: "k1", holdIds: ["h1"] });
          // The retry holds nothing: the key is in progress and started, whatever its lease says.
          await expect(claimAndHold("h2", "exe_2", at(2 * MIN))).resolves.toEqual({
            claim: { state: "in_progress", executionId: "exe_1", leaseExpiresAt: at(MIN), started: true },
          });
          await expect(claimAndHold("h3", "exe_3", at(1_000), 10, "hashB")).resolves.toEqual({ claim: { state: "conflict" } });
          await expect(store().getWallet("u1")).resolves.toMatchObject({ balanceCredits: 90, heldCredits: 10 });
          await expectWalletMatchesJournal(store(), "u1");
        });

        it("answers a completed key with its result and holds nothing", async () => {
          await claim("hashA", T0, "k1", "u1", MIN, "exe_done");
          await store().completeIdempotencyKey({ userId: "u1", key: "k1", result: ok, now: at(1) });
          await expect(claimAndHold("h1", "exe_new", at(2))).resolves.toEqual({
            claim: { state: "completed", executionId: "exe_done", result: ok },
          });
          await expect(store().getHold("h1")).resolves.toBeNull();
          await expect(store().getWallet("u1")).resolves.toMatchObject({ balanceCredits: 100, heldCredits: 0 });
        });

        it("keeps the claim when the hold is refused, so the refusal can be stored as the key's answer", async () => {
          await expect(claimAndHold("h1", "exe_1", T0, 101)).resolves.toMatchObject({
            claim: { state: "claimed", executionId: "exe_1" },
            hold: { status: "insufficient" },
          });
          await expect(store().getExecution("exe_1")).resolves.toMatchObject({ state: "claimed", holdIds: [] });
          await expect(
            store().completeExecution({ userId: "u1", executionId: "exe_1", result: { httpStatus: 402 }, now: at(1) }),
          ).resolves.toBe("completed");
          await expect(store().getWallet("u1")).resolves.toMatchObject({ balanceCredits: 100, heldCredits: 0 });
        });

        it("takes over a claim whose lease ran out with nothing held, and fences its late owner", async () => {
          await claim("hashA", T0, "k1", "u1", MIN, "exe_old");
          await expect(claimAndHold("h_new", "exe_new", at(MIN))).resolves.toMatchObject({
            claim: { state: "claimed", executionId: "exe_new" },
            hold: { status: "created" },
          });
          await expect(store().getExecution("exe_old")).resolves.toBeNull();
          await expect(holdFor("h_old", "exe_old", at(MIN + 1), "k1")).resolves.toMatchObject({ status: "fenced" });
          await expect(store().getWallet("u1")).resolves.toMatchObject({ balanceCredits: 90, heldCredits: 10 });
        });

        it("gives one claim and one hold to concurrent requests", async () => {
          const results = await Promise.all(Array.from({ length: 20 }, (_, i) => claimAndHold(`h${i}`, `exe_c${i}`, T0)));
          expect(results.filter((r) => r.hold?.status === "created")).toHaveLength(1);
          expect(results.filter((r) => r.claim.state === "in_progress")).toHaveLength(19);
          await expect(store().getWallet("u1")).resolves.toMatchObject({ balanceCredits: 90, heldCredits: 10 });
          await expectWalletMatchesJournal(store(), "u1");
        });
      });

      it("completes only a claimed key", async () => {
        await expect(store().completeIdempotencyKey({ userId: "u1", key: "never", result: { httpStatus: 200 }, now: T0 })).resolves.toBe(
          "not_found",
        );
        await expect(store().getExecution("exe_none")).resolves.toBeNull();
      });
    });
  });
}
