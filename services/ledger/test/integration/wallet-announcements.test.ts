// Every committed change that may change a user's GetWallet answer is announced on core NATS
// (WalletChanged on ledger.wallet.changed), whichever path made it: an RPC, a settlement from the bus,
// the expiry sweeper, an operator's top-up resolution. The routers cache wallet reads on that promise.
// Announced after the commit: a GetWallet sent when the announcement arrives already shows the change.
import { connect, type NatsConnection } from "nats";
import { SUBJECT_WALLET_CHANGED } from "@agentic/platform";
import { WalletChanged } from "@agentic/proto/events/v1";
import type { Wallet } from "@agentic/proto/ledger/v1";
import { topUpIdOf, type TopUpRecord } from "../../src/domain/top-up";
import { publishSettlement, SettlementKind, type TestLedger } from "../harness";
import { startNatsServer, type NatsServerHandle } from "@agentic/testing";
import { uid, useTestLedger } from "../support";

/** Every announcement on the subject, in order, and a way to await the next one of a user. */
class Announcements {
  readonly users: string[] = [];
  private readonly waiters: { userId: string; resolve: () => void }[] = [];
  private nc: NatsConnection | undefined;

  /** Subscribes, and resolves once the server has the subscription (before any operation of the test). */
  async listen(url: string): Promise<void> {
    this.nc = await connect({ servers: url, name: "announcements-test" });
    this.nc.subscribe(SUBJECT_WALLET_CHANGED, { callback: (_err, msg) => this.received(WalletChanged.decode(msg.data).userId) });
    await this.nc.flush();
  }

  private received(userId: string): void {
    this.users.push(userId);
    const due = this.waiters.filter((x) => x.userId === userId);
    this.waiters.splice(0, this.waiters.length, ...this.waiters.filter((x) => x.userId !== userId));
    for (const w of due) w.resolve();
  }

  /** Resolves at the next announcement of `userId` (ask before the operation). */
  next(userId: string, timeoutMs = 5_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no announcement of ${userId} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        userId,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  async close(): Promise<void> {
    await this.nc?.close();
  }
}

let server: NatsServerHandle;
const announcements = new Announcements();
beforeAll(async () => {
  server = await startNatsServer();
  await announcements.listen(server.url);
});
afterAll(async () => {
  await announcements.close(); // before the server goes, or it would try to reconnect
  await server?.stop();
});
const ledger = useTestLedger(() => server, { holdTtlMs: 150, sweepIntervalMs: 20 });

/** Runs `change` and resolves with the wallet as GetWallet reads it the moment the announcement of `userId` arrives. */
async function walletWhenAnnounced(t: TestLedger, userId: string, change: () => Promise<unknown>): Promise<Wallet | undefined> {
  const announced = announcements.next(userId).then(() => t.client.getWallet({ userId }));
  announced.catch(() => undefined); // a change that throws fails the test itself, not the process
  await change();
  return (await announced).wallet;
}

// Each step awaits its own announcement, so a late one cannot pass for the next step's.
async function funded(t: TestLedger, credits: number): Promise<string> {
  const userId = uid("user");
  await walletWhenAnnounced(t, userId, () =>
    t.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: credits, reason: "test" }),
  );
  return userId;
}

async function keyOf(t: TestLedger, userId: string): Promise<string> {
  let keyId = "";
  await walletWhenAnnounced(t, userId, async () => {
    const { key } = await t.client.createApiKey({ userId, name: "announced" });
    keyId = key!.keyId;
  });
  return keyId;
}

const hold = (t: TestLedger, userId: string, holdId: string, amountCredits: number, ttlMs = 0) =>
  t.client.holdCredits({ holdId, userId, amountCredits, ttlMs, routeKey: "email.send.resend" });

describe("wallet announcements", () => {
  it("announces grants, refunds and adjustments after they committed", async () => {
    const t = ledger();
    const userId = uid("user");
    expect(
      await walletWhenAnnounced(t, userId, () =>
        t.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 100, reason: "test" }),
      ),
    ).toMatchObject({ balanceCredits: 100 });
    for (const [kind, amountCredits, after] of [
      ["refund", 20, 120],
      ["adjustment", -30, 90],
    ] as const) {
      const move = () =>
        t.client.recordCreditMovement({ kind, userId, amountCredits, reason: "test", reference: uid("ref"), operatorName: "Ada" });
      expect(await walletWhenAnnounced(t, userId, move)).toMatchObject({ balanceCredits: after });
    }
  });

  it("announces a hold, its capture and a release from the bus, and an expiry by the sweeper", async () => {
    const t = ledger();
    const userId = await funded(t, 100);
    const [captured, released, expiring] = [uid("att"), uid("att"), uid("att")];
    expect(await walletWhenAnnounced(t, userId, () => hold(t, userId, captured, 10))).toMatchObject({
      balanceCredits: 90,
      heldCredits: 10,
    });
    const capture = { holdId: captured, userId, kind: SettlementKind.SETTLEMENT_KIND_CAPTURE, capturedCredits: 4 };
    expect(await walletWhenAnnounced(t, userId, () => publishSettlement(t.nc, capture))).toMatchObject({
      balanceCredits: 96,
      heldCredits: 0,
    });

    await walletWhenAnnounced(t, userId, () => hold(t, userId, released, 6));
    const release = { holdId: released, userId, kind: SettlementKind.SETTLEMENT_KIND_RELEASE, capturedCredits: 0 };
    expect(await walletWhenAnnounced(t, userId, () => publishSettlement(t.nc, release))).toMatchObject({
      balanceCredits: 96,
      heldCredits: 0,
    });

    await walletWhenAnnounced(t, userId, () => hold(t, userId, expiring, 7, 150));
    expect(await walletWhenAnnounced(t, userId, () => t.waitForExpiry(expiring))).toMatchObject({ balanceCredits: 96, heldCredits: 0 });
  });

  it("announces an execute's claim with its hold, and a quote's reservation", async () => {
    const t = ledger();
    const userId = await funded(t, 100);
    const keyId = await keyOf(t, userId);
    const [executionId, idempotencyKey] = [uid("exe"), uid("idem")];
    const claimAndHold = () =>
      t.client.claimIdempotencyKeyAndHoldCredits({
        claim: {
          userId,
          idempotencyKey,
          requestHash: "h",
          leaseMs: 0,
          executionId,
          capabilityKey: "email.send",
        },
        hold: {
          holdId: uid("att"),
          userId,
          amountCredits: 10,
          ttlMs: 0,
          routeKey: "email.send.resend",
          execution: { executionId, capabilityKey: "email.send", idempotencyKey },
        },
      });
    expect(await walletWhenAnnounced(t, userId, claimAndHold)).toMatchObject({ balanceCredits: 90, heldCredits: 10 });

    const quote = () =>
      t.client.createQuoteHold({
        quoteId: uid("quo"),
        userId,
        keyId,
        capabilityKey: "email.send",
        routeKey: "email.send.resend",
        amountCredits: 5,
        requestHash: "h",
        ttlMs: 60_000,
      });
    expect(await walletWhenAnnounced(t, userId, quote)).toMatchObject({ balanceCredits: 85, heldCredits: 15 });
  });

  it("announces a key's owner when a key is created, limited or revoked, and when its spend policy is set or cleared", async () => {
    const t = ledger();
    const userId = await funded(t, 100);
    const keyId = await keyOf(t, userId);
    const policy = { keyId, budgetCredits: 50, reset: "daily", capabilityCaps: [] };
    const policies = () => t.client.getWallet({ userId, keyId }).then((w) => w.spendPolicies.map((s) => s.policy?.budgetCredits));

    await walletWhenAnnounced(t, userId, () => t.client.setSpendPolicy({ policy, clear: false }));
    expect(await policies()).toEqual([50]);
    await walletWhenAnnounced(t, userId, () => t.client.setSpendPolicy({ policy: { ...policy, agentName: "alpha" }, clear: false }));
    await walletWhenAnnounced(t, userId, () => t.client.setSpendPolicy({ policy, clear: true }));
    expect(await policies()).toEqual([]);
    await walletWhenAnnounced(t, userId, () => t.client.setApiKeyLimits({ keyId, limits: { requestsPerSecond: 5, burst: 5 } }));
    await walletWhenAnnounced(t, userId, () => t.client.revokeApiKey({ keyId }));
  });

  it("announces a pending top-up an operator credits", async () => {
    const t = ledger();
    const userId = uid("user");
    const identity = { network: "eip155:84532", asset: "0xasset", payer: "0x00000000000000000000000000000000000000aa", nonce: uid("n") };
    const at = new Date(Date.now() - 60_000);
    const record: TopUpRecord = {
      topUpId: topUpIdOf(identity),
      userId,
      ...identity,
      payTo: "0x2Fe5b450cd7Ec8347d9d9D6D726b4cfe1d46D5f5",
      amountAtomic: "700000",
      amountCredits: 700,
      state: "pending",
      createdAt: at,
      attemptedAt: at,
      attempts: 1,
      requirements: "{}",
      payload: "{}",
    };
    await t.store.startTopUp({ record, staleBefore: new Date(0), now: at });
    const resolve = () =>
      t.client.resolveTopUp({
        topUpId: record.topUpId,
        outcome: "credit",
        reason: "seen on chain",
        transaction: "0xabc",
        operatorName: "Ada",
      });
    expect(await walletWhenAnnounced(t, userId, resolve)).toMatchObject({ balanceCredits: 700 });
  });

  it("announces nothing for reads", async () => {
    const t = ledger();
    const reader = await funded(t, 100);
    const marker = uid("user");
    const from = announcements.users.length;
    await t.client.getWallet({ userId: reader });
    await t.client.listUsage({ userId: reader, limit: 10 });
    await t.client.listJournal({ userId: reader });
    await t.client.getSpendPolicies({ userId: reader, keyId: "" });
    // One publisher, one connection: anything the reads announced would arrive before the marker's.
    await walletWhenAnnounced(t, marker, () =>
      t.client.grantCredits({ grantId: uid("grant"), userId: marker, amountCredits: 1, reason: "marker" }),
    );
    expect(announcements.users.slice(from)).toEqual([marker]);
  });
});
