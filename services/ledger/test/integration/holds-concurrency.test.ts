// Holds under concurrency over real gRPC: the balance never goes below zero and exactly the holds
// the wallet covers succeed.
import { status } from "@grpc/grpc-js";
import { fromServiceError } from "@agentic/platform";
import { useNatsServer, useTestLedger, uid, remoteError } from "../support";
import { SettlementKind, publishSettlement } from "../harness";

const nats = useNatsServer();
const ledger = useTestLedger(nats);

describe("HoldCredits under concurrency", () => {
  it("200 concurrent holds of P credits against a wallet covering 50: exactly 50 succeed, balance ends 0", async () => {
    const { client } = ledger();
    const user = uid("user");
    const price = 7;
    await client.grantCredits({ grantId: uid("grant"), userId: user, amountCredits: 50 * price, reason: "" });

    const results = await Promise.allSettled(
      Array.from({ length: 200 }, () =>
        client.holdCredits({ holdId: uid("hold"), userId: user, amountCredits: price, routeKey: "email.send/resend", ttlMs: 0 }),
      ),
    );

    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => fromServiceError(r.reason));
    expect(ok).toHaveLength(50);
    expect(refused).toHaveLength(150);
    for (const err of refused) {
      expect(err).toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: "CREDITS_REQUIRED", details: { requiredCredits: price } });
      expect(err.details!.balanceCredits).toBeGreaterThanOrEqual(0);
      expect(err.details!.balanceCredits).toBeLessThan(price);
    }
    // Every balance a successful hold reported is non-negative, and they are all distinct (serialized).
    const seen = ok.map((r) => (r as PromiseFulfilledResult<{ wallet?: { balanceCredits: number } }>).value.wallet!.balanceCredits);
    expect(Math.min(...seen)).toBe(0);
    expect(new Set(seen).size).toBe(50);

    const { wallet } = await client.getWallet({ userId: user });
    expect(wallet).toEqual({ userId: user, balanceCredits: 0, heldCredits: 50 * price });
    const journal = await client.listJournal({ userId: user });
    expect(journal.entries.filter((e) => e.kind === "hold")).toHaveLength(50);
    expect(journal.journalBalanceCredits).toBe(0);
    expect(journal.journalHeldCredits).toBe(50 * price);
  });

  it("settling all of them concurrently over the bus leaves the charged total and nothing held", async () => {
    const t = ledger();
    const { client, nc } = t;
    const user = uid("user");
    await client.grantCredits({ grantId: uid("grant"), userId: user, amountCredits: 1_000, reason: "" });
    const holds = await Promise.all(
      Array.from({ length: 40 }, () =>
        client.holdCredits({ holdId: uid("hold"), userId: user, amountCredits: 20, ttlMs: 0, routeKey: "" }),
      ),
    );

    // Even holds capture 5 of 20, odd holds release.
    await Promise.all(
      holds.map(({ hold }, i) =>
        publishSettlement(nc, {
          holdId: hold!.holdId,
          userId: user,
          kind: i % 2 ? SettlementKind.SETTLEMENT_KIND_RELEASE : SettlementKind.SETTLEMENT_KIND_CAPTURE,
          capturedCredits: i % 2 ? 0 : 5,
        }),
      ),
    );
    await Promise.all(holds.map(({ hold }) => t.waitForSettlement(hold!.holdId)));

    expect((await client.getWallet({ userId: user })).wallet).toEqual({ userId: user, balanceCredits: 1_000 - 20 * 5, heldCredits: 0 });
    expect((await client.listUsage({ userId: user, limit: 100 })).items).toHaveLength(40);
  });

  it("a repeated hold id reserves once; the same id with another amount is HOLD_ID_CONFLICT", async () => {
    const { client } = ledger();
    const user = uid("user");
    const holdId = uid("hold");
    await client.grantCredits({ grantId: uid("grant"), userId: user, amountCredits: 100, reason: "" });

    const tries = await Promise.all(
      Array.from({ length: 10 }, () => client.holdCredits({ holdId, userId: user, amountCredits: 30, ttlMs: 0, routeKey: "" })),
    );
    expect(tries.filter((r) => !r.replayed)).toHaveLength(1);
    expect(tries.every((r) => r.hold!.holdId === holdId && r.hold!.state === "held")).toBe(true);
    expect((await client.getWallet({ userId: user })).wallet).toMatchObject({ balanceCredits: 70, heldCredits: 30 });

    await expect(
      remoteError(client.holdCredits({ holdId, userId: user, amountCredits: 31, ttlMs: 0, routeKey: "" })),
    ).resolves.toMatchObject({
      grpcCode: status.ALREADY_EXISTS,
      code: "HOLD_ID_CONFLICT",
    });
    await expect(
      remoteError(client.holdCredits({ holdId, userId: uid("other"), amountCredits: 30, ttlMs: 0, routeKey: "" })),
    ).resolves.toMatchObject({
      grpcCode: status.ALREADY_EXISTS,
      code: "HOLD_ID_CONFLICT",
    });
  });

  it("CREDITS_REQUIRED says what was needed and what is available, and writes nothing", async () => {
    const { client } = ledger();
    const user = uid("user");
    await client.grantCredits({ grantId: uid("grant"), userId: user, amountCredits: 3, reason: "" });
    const err = await remoteError(client.holdCredits({ holdId: uid("hold"), userId: user, amountCredits: 4, ttlMs: 0, routeKey: "" }));
    expect(err).toMatchObject({
      grpcCode: status.FAILED_PRECONDITION,
      code: "CREDITS_REQUIRED",
      details: { requiredCredits: 4, balanceCredits: 3 },
    });
    expect(err.hint).toMatch(/credits/i);
    expect((await client.listJournal({ userId: user })).entries.map((e) => e.kind)).toEqual(["grant"]);
  });

  it("rejects bad input with INVALID_ARGUMENT naming the field", async () => {
    const { client } = ledger();
    await expect(
      remoteError(client.holdCredits({ holdId: "", userId: "u", amountCredits: 1, ttlMs: 0, routeKey: "" })),
    ).resolves.toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      details: { field: "hold_id" },
    });
    await expect(
      remoteError(client.holdCredits({ holdId: uid("hold"), userId: "u", amountCredits: 0, ttlMs: 0, routeKey: "" })),
    ).resolves.toMatchObject({
      details: { field: "amount_credits" },
    });
    await expect(
      remoteError(client.holdCredits({ holdId: uid("hold"), userId: "u", amountCredits: -5, ttlMs: 0, routeKey: "" })),
    ).resolves.toMatchObject({
      details: { field: "amount_credits" },
    });
    await expect(
      remoteError(client.holdCredits({ holdId: uid("hold"), userId: "u", amountCredits: 1, ttlMs: 7_200_000, routeKey: "" })),
    ).resolves.toMatchObject({
      details: { field: "ttl_ms" },
    });
    await expect(remoteError(client.getHold({ holdId: uid("hold") }))).resolves.toMatchObject({
      grpcCode: status.NOT_FOUND,
      code: "HOLD_NOT_FOUND",
    });
  });
});
