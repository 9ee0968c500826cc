// What settlements book besides money, over the real path (nats-server, JetStream consumer, gRPC):
// resources a capture creates become the user's, every payment an attempt made is booked once
// however often its settlement is delivered, and a payment whose hold charged nothing (a release, a
// capture after expiry) is a platform loss the reconciliation lists.
import { status } from "@grpc/grpc-js";
import { createLedgerClient } from "@agentic/clients";
import { generateIdentityKeys, serviceIdentity, type CallIdentity } from "@agentic/platform";
import { testIdentities } from "@agentic/testing";
import type { DeepPartial, OutgoingPayment } from "@agentic/proto/events/v1";
import { SettlementKind, publishSettlement } from "../harness";
import { remoteError, uid, useNatsServer, useTestLedger } from "../support";

const nats = useNatsServer();
const ledger = useTestLedger(nats, { sweepIntervalMs: 20 });

// A fresh ledger per test, so a range around today holds this test's bookings only (even across midnight).
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const range = () => ({ fromDate: day(-1), toDate: day(1) });
const ROUTE = "geo.time.current.timeapi.mpp";

function payment(overrides: DeepPartial<OutgoingPayment> = {}): DeepPartial<OutgoingPayment> {
  return {
    rail: "mpp",
    network: "eip155:84532",
    asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    amountAtomic: "1500",
    amountMicroUsd: 1_500,
    payTo: "0x2222222222222222222222222222222222222222",
    payer: "0x1111111111111111111111111111111111111111",
    reference: "0xfeed",
    settlement: "settled",
    ...overrides,
  };
}

async function funded(credits = 1_000): Promise<string> {
  const userId = uid("user");
  await ledger().client.grantCredits({ grantId: uid("grant"), userId, amountCredits: credits, reason: "" });
  return userId;
}

async function held(userId: string, amountCredits: number, ttlMs = 0): Promise<string> {
  const holdId = uid("att");
  await ledger().client.holdCredits({
    holdId,
    userId,
    amountCredits,
    routeKey: ROUTE,
    ttlMs,
    execution: { executionId: uid("exe"), capabilityKey: "geo.time.current" },
  });
  return holdId;
}

const reconcile = () => ledger().client.getReconciliation(range());

describe("resources a capture creates", () => {
  it("belong to the capturing user; anyone else gets RESOURCE_NOT_FOUND, as for a resource that does not exist", async () => {
    const t = ledger();
    const [alice, bob] = [await funded(3_000), await funded()];
    const holdId = await held(alice, 2_500);
    const inboxId = `${uid("inbox").toLowerCase()}@agentmail.to`;
    await publishSettlement(t.nc, {
      holdId,
      userId: alice,
      kind: SettlementKind.SETTLEMENT_KIND_CAPTURE,
      capturedCredits: 2_500,
      resources: [{ kind: "email.inbox", resourceId: inboxId, provider: "agentmail" }],
    });
    await t.waitForSettlement(holdId);

    await expect(t.client.getOwnedResource({ userId: alice, kind: "email.inbox", resourceId: inboxId })).resolves.toMatchObject({
      resource: { kind: "email.inbox", resourceId: inboxId, provider: "agentmail", userId: alice, holdId },
    });
    const others = await remoteError(t.client.getOwnedResource({ userId: bob, kind: "email.inbox", resourceId: inboxId }));
    const missing = await remoteError(t.client.getOwnedResource({ userId: bob, kind: "email.inbox", resourceId: "nobody@agentmail.to" }));
    expect(others).toMatchObject({ grpcCode: status.NOT_FOUND, code: "RESOURCE_NOT_FOUND" });
    // Nothing tells another user's resource from one that does not exist, except the id it echoes.
    expect(others.message.replace(inboxId, "ID")).toBe(missing.message.replace("nobody@agentmail.to", "ID"));
    expect(others.hint).toBe(missing.hint);
    await expect(remoteError(t.client.getOwnedResource({ userId: alice, kind: "email.inbox", resourceId: "a b" }))).resolves.toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
    });
  });
});

describe("outgoing payments and platform losses", () => {
  it("books a paid capture once per payment, however often it is delivered, and reconciles paid out against charged", async () => {
    const t = ledger();
    const userId = await funded();
    const holdId = await held(userId, 3);
    const event = {
      holdId,
      userId,
      kind: SettlementKind.SETTLEMENT_KIND_CAPTURE,
      capturedCredits: 3,
      payments: [payment({ amountAtomic: "2000", amountMicroUsd: 2_000 })],
    };
    await publishSettlement(t.nc, event);
    await t.waitForSettlement(holdId);
    // A redelivery after JetStream's de-duplication window: another msg id, the same settlement.
    await publishSettlement(t.nc, event, { msgId: `${holdId}.again` });
    await t.waitForSettlement(holdId, { count: 2 });

    const { payments } = await t.client.listOutgoingPayments(range());
    expect(payments).toEqual([
      expect.objectContaining({
        paymentId: `${holdId}/0`,
        holdId,
        userId,
        routeKey: ROUTE,
        rail: "mpp",
        amountAtomic: "2000",
        amountMicroUsd: 2_000,
        reference: "0xfeed",
        settlement: "settled",
      }),
    ]);
    const report = await reconcile();
    expect(report.rows).toEqual([
      {
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        routeKey: ROUTE,
        paidOutMicroUsd: 2_000,
        payments: 1,
        atRiskMicroUsd: 0,
        chargedCredits: 3,
        chargedMicroUsd: 3_000,
        captures: 1,
        lostMicroUsd: 0,
        marginMicroUsd: 1_000,
      },
    ]);
    expect(report.losses).toEqual([]);
  });

  it("writes a loss with the release of a paid attempt, once, and counts a refused authorization as at risk, not paid", async () => {
    const t = ledger();
    const userId = await funded();
    const paidHold = await held(userId, 3);
    const refusedHold = await held(userId, 3);
    const release = (holdId: string, p: DeepPartial<OutgoingPayment>) =>
      publishSettlement(t.nc, {
        holdId,
        userId,
        kind: SettlementKind.SETTLEMENT_KIND_RELEASE,
        usage: { status: "failed", errorCode: "PROVIDER_ERROR" },
        payments: [p],
      });
    await release(paidHold, payment());
    await release(refusedHold, payment({ reference: "", settlement: "rejected" }));
    await Promise.all([t.waitForSettlement(paidHold), t.waitForSettlement(refusedHold)]);
    await publishSettlement(
      t.nc,
      { holdId: paidHold, userId, kind: SettlementKind.SETTLEMENT_KIND_RELEASE, payments: [payment()] },
      { msgId: `${paidHold}.again` },
    );
    await t.waitForSettlement(paidHold, { count: 2 });

    const report = await reconcile();
    expect(report.losses.map((l) => [l.holdId, l.reason, l.amountMicroUsd, l.settlement, l.errorCode])).toEqual([
      [paidHold, "paid_attempt_released", 1_500, "settled", "PROVIDER_ERROR"],
      [refusedHold, "seller_rejected_signed_payment", 1_500, "rejected", "PROVIDER_ERROR"],
    ]);
    expect(report.rows).toMatchObject([
      {
        routeKey: ROUTE,
        paidOutMicroUsd: 1_500,
        payments: 1,
        atRiskMicroUsd: 1_500,
        chargedCredits: 0,
        captures: 0,
        lostMicroUsd: 1_500,
        marginMicroUsd: -1_500,
      },
    ]);
    expect(report.totals).toMatchObject({ paidOutMicroUsd: 1_500, atRiskMicroUsd: 1_500, lostMicroUsd: 1_500, chargedMicroUsd: 0 });
    await expect(t.client.getWallet({ userId })).resolves.toMatchObject({ wallet: { balanceCredits: 1_000, heldCredits: 0 } });
  });

  it("books a capture that arrives after its hold expired as a loss, charging nothing", async () => {
    const t = ledger();
    const userId = await funded();
    const holdId = await held(userId, 3, 50);
    await t.waitForExpiry(holdId);
    await publishSettlement(t.nc, {
      holdId,
      userId,
      kind: SettlementKind.SETTLEMENT_KIND_CAPTURE,
      capturedCredits: 3,
      payments: [payment()],
    });
    await t.waitForSettlement(holdId);

    const report = await reconcile();
    expect(report.losses).toMatchObject([{ holdId, reason: "capture_after_hold_expired", amountMicroUsd: 1_500, reference: "0xfeed" }]);
    expect(report.rows).toMatchObject([{ paidOutMicroUsd: 1_500, chargedCredits: 0, lostMicroUsd: 1_500 }]);
    await expect(t.client.getWallet({ userId })).resolves.toMatchObject({ wallet: { balanceCredits: 1_000, heldCredits: 0 } });
  });

  it("is read with the admin identity only: the report names users and losses, so any other caller is refused", async () => {
    const t = ledger();
    const userId = await funded();
    const holdId = await held(userId, 3);
    await publishSettlement(t.nc, { holdId, userId, kind: SettlementKind.SETTLEMENT_KIND_RELEASE, payments: [payment()] });
    await t.waitForSettlement(holdId);
    await expect(reconcile()).resolves.toMatchObject({ losses: [{ paymentId: `${holdId}/0`, reason: "paid_attempt_released" }] });
    const as = (identity?: CallIdentity) => createLedgerClient(t.address, 5_000, identity);
    const strangers = [
      { client: as(), grpcCode: status.UNAUTHENTICATED },
      { client: as(serviceIdentity("admin", generateIdentityKeys().privateKey)), grpcCode: status.UNAUTHENTICATED },
      ...(["gateway", "router", "executor"] as const).map((name) => ({
        client: as(testIdentities().identity(name)),
        grpcCode: status.PERMISSION_DENIED,
      })),
    ];
    try {
      for (const { client, grpcCode } of strangers) {
        expect(await remoteError(client.getReconciliation(range()))).toMatchObject({ grpcCode });
        expect(await remoteError(client.listOutgoingPayments(range()))).toMatchObject({ grpcCode });
      }
    } finally {
      strangers.forEach(({ client }) => client.close());
    }
  });

  it("refuses a reconciliation range that is not UTC days, or longer than 366 days", async () => {
    const { client } = ledger();
    await expect(remoteError(client.getReconciliation({ fromDate: "2026-11-31", toDate: "2026-12-01" }))).resolves.toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      details: { field: "from_date" },
    });
    await expect(remoteError(client.getReconciliation({ fromDate: "2026-11-02", toDate: "2026-11-01" }))).resolves.toMatchObject({
      details: { field: "to_date" },
    });
    await expect(remoteError(client.listOutgoingPayments({ fromDate: "2025-01-01", toDate: "2026-01-02" }))).resolves.toMatchObject({
      details: { field: "to_date" },
    });
    await expect(client.getReconciliation({ fromDate: "2026-01-01", toDate: "2026-12-31" })).resolves.toMatchObject({
      rows: [],
      losses: [],
    });
  });
});
