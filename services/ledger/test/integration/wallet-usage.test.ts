// Wallets, grants, the journal and the usage list over gRPC, with usage fed by real settlements.
import { status } from "@grpc/grpc-js";
import { SettlementKind, publishSettlement } from "../harness";
import { remoteError, uid, useNatsServer, useTestLedger } from "../support";

const nats = useNatsServer();
const ledger = useTestLedger(nats);

describe("wallets and grants", () => {
  it("a user without a wallet reads as zero", async () => {
    const { client } = ledger();
    await expect(client.getWallet({ userId: uid("nobody") })).resolves.toMatchObject({ wallet: { balanceCredits: 0, heldCredits: 0 } });
  });

  it("grants once per grant id: a replay credits 0, another amount is GRANT_ID_CONFLICT", async () => {
    const { client } = ledger();
    const userId = uid("user");
    const grantId = uid("grant");
    await expect(client.grantCredits({ grantId, userId, amountCredits: 1_000, reason: "dev_init" })).resolves.toEqual({
      wallet: { userId, balanceCredits: 1_000, heldCredits: 0 },
      creditedCredits: 1_000,
    });
    await expect(client.grantCredits({ grantId, userId, amountCredits: 1_000, reason: "dev_init" })).resolves.toMatchObject({
      creditedCredits: 0,
      wallet: { balanceCredits: 1_000 },
    });
    await expect(remoteError(client.grantCredits({ grantId, userId, amountCredits: 5, reason: "" }))).resolves.toMatchObject({
      grpcCode: status.ALREADY_EXISTS,
      code: "GRANT_ID_CONFLICT",
    });
    await expect(remoteError(client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 0, reason: "" }))).resolves.toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      details: { field: "amount_credits" },
    });
    const journal = await client.listJournal({ userId });
    expect(journal.entries).toMatchObject([{ kind: "grant", referenceId: grantId, amountCredits: 1_000, heldDeltaCredits: 0, userId }]);
    expect(journal.journalBalanceCredits).toBe(1_000);
  });
});

describe("usage", () => {
  it("lists one item per settled execution, newest first, with every field and what was charged", async () => {
    const t = ledger();
    const userId = uid("user");
    await t.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 1_000, reason: "" });
    const base = Date.parse("2030-01-01T00:00:00Z");
    const holdIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const holdId = uid("hold");
      holdIds.push(holdId);
      await t.client.holdCredits({ holdId, userId, amountCredits: 10, routeKey: "email.send/resend", ttlMs: 0 });
      await publishSettlement(t.nc, {
        holdId,
        userId,
        kind: i === 1 ? SettlementKind.SETTLEMENT_KIND_RELEASE : SettlementKind.SETTLEMENT_KIND_CAPTURE,
        capturedCredits: 4,
        usage: {
          usageId: `use_${i}_${holdId}`,
          createdAt: new Date(base + i * 1_000),
          productKey: "email",
          capabilityKey: "email.send",
          routeKey: "email.send/resend",
          provider: "resend",
          networkKey: "direct",
          status: i === 1 ? "failed" : "succeeded",
          durationMs: 120 + i,
          agentName: i === 0 ? "scout" : undefined,
          traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
          errorCode: i === 1 ? "PROVIDER_ERROR" : undefined,
        },
      });
      await t.waitForSettlement(holdId);
    }

    const { items } = await t.client.listUsage({ userId, limit: 0 });
    expect(items.map((u) => u.holdId)).toEqual([...holdIds].reverse());
    expect(items[2]).toEqual({
      kind: "charge",
      id: `use_0_${holdIds[0]}`,
      createdAt: new Date(base),
      productKey: "email",
      capabilityKey: "email.send",
      routeKey: "email.send/resend",
      provider: "resend",
      networkKey: "direct",
      status: "succeeded",
      creditsCharged: 4,
      durationMs: 120,
      agentName: "scout",
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      holdId: holdIds[0],
    });
    expect(items[1]).toMatchObject({ status: "failed", errorCode: "PROVIDER_ERROR", creditsCharged: 0 });
    expect(items[1]!.agentName).toBeUndefined();
    expect((await t.client.listUsage({ userId, limit: 2 })).items).toHaveLength(2);
    expect((await t.client.getWallet({ userId })).wallet).toMatchObject({ balanceCredits: 1_000 - 8, heldCredits: 0 });
  });

  it("limit must be 1..100 (0 means 20)", async () => {
    const { client } = ledger();
    await expect(client.listUsage({ userId: uid("user"), limit: 0 })).resolves.toEqual({ items: [] });
    await expect(client.listUsage({ userId: uid("user"), limit: 100 })).resolves.toEqual({ items: [] });
    for (const limit of [101, -1]) {
      await expect(remoteError(client.listUsage({ userId: uid("user"), limit }))).resolves.toMatchObject({
        grpcCode: status.INVALID_ARGUMENT,
        details: { field: "limit" },
      });
    }
  });
});
