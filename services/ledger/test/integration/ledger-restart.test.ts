// A settlement published while no ledger runs waits in the stream (durable consumer) and is applied
// when a ledger comes back on the same store.
import { connect } from "nats";
import { EXECUTIONS_STREAM } from "@agentic/platform";
import { SETTLEMENT_DURABLE } from "../../src/bus/settlement-consumer";
import type { LedgerStore } from "../../src/domain/ports";
import { SettlementKind, assertLedgerConsistent, publishSettlement, startTestLedger, type TestLedger, openMemoryStore } from "../harness";
import { uid, useNatsServer } from "../support";
import { waitFor } from "@agentic/testing";

const nats = useNatsServer();

describe("ledger restart", () => {
  const running: TestLedger[] = [];
  let store: LedgerStore;
  beforeAll(async () => {
    store = await openMemoryStore();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((l) => l.stop()));
    await assertLedgerConsistent(store);
  });

  it("a capture published while the ledger is down is applied when it comes back", async () => {
    const first = await startTestLedger({ natsUrl: nats().url, store });
    running.push(first);
    const userId = uid("user");
    const holdId = uid("hold");
    await first.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 100, reason: "" });
    await first.client.holdCredits({ holdId, userId, amountCredits: 30, ttlMs: 0, routeKey: "" });
    await first.stop(); // gRPC server and consumer gone; store and NATS remain

    const publisher = await connect({ servers: nats().url }); // like the executor's connection
    const ack = await publishSettlement(publisher, { holdId, userId, kind: SettlementKind.SETTLEMENT_KIND_CAPTURE, capturedCredits: 12 });
    expect(ack.duplicate).toBe(false);
    const waiting = await (await publisher.jetstreamManager()).consumers.info(EXECUTIONS_STREAM, SETTLEMENT_DURABLE);
    expect(waiting.num_pending).toBe(1); // durably queued for the "ledger" consumer
    await publisher.close();
    expect((await store.getHold(holdId))!.state).toBe("held");

    const second = await startTestLedger({ natsUrl: nats().url, store });
    running.push(second);
    await expect(second.waitForSettlement(holdId)).resolves.toMatchObject([
      { result: "applied", hold: { state: "captured", capturedCredits: 12 } },
    ]);
    expect((await second.client.getWallet({ userId })).wallet).toEqual({ userId, balanceCredits: 88, heldCredits: 0 });
  });

  it("two replicas on one store and one durable consumer apply each settlement once", async () => {
    const a = await startTestLedger({ natsUrl: nats().url, store });
    const b = await startTestLedger({ natsUrl: nats().url, store });
    running.push(a, b);
    const userId = uid("user");
    await a.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 1_000, reason: "" });
    const holdIds = Array.from({ length: 30 }, () => uid("hold"));
    await Promise.all(
      holdIds.map((holdId, i) => (i % 2 ? a : b).client.holdCredits({ holdId, userId, amountCredits: 10, ttlMs: 0, routeKey: "" })),
    );
    for (const holdId of holdIds) {
      await publishSettlement(a.nc, { holdId, userId, kind: SettlementKind.SETTLEMENT_KIND_CAPTURE, capturedCredits: 10 });
      await publishSettlement(
        b.nc,
        { holdId, userId, kind: SettlementKind.SETTLEMENT_KIND_CAPTURE, capturedCredits: 10 },
        { msgId: `${holdId}:again` },
      );
    }
    const seen = () => [...a.settlements, ...b.settlements];
    await waitFor(() => seen().length >= 60, { timeoutMs: 10_000 });
    expect(seen().filter((s) => s.result === "applied")).toHaveLength(30);
    expect(seen().filter((s) => s.result === "already_settled")).toHaveLength(30);
    expect(a.settlements.length).toBeGreaterThan(0); // both replicas took part
    expect(b.settlements.length).toBeGreaterThan(0);
    expect((await a.client.getWallet({ userId })).wallet).toEqual({ userId, balanceCredits: 700, heldCredits: 0 });
  });
});
