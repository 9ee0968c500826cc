// The EXECUTIONS stream cannot fill up with what is done, and when it fills with what is not (no
// ledger applying captures), it refuses new publishes instead of dropping a stored capture; the
// ledger, back, applies every capture once and trims, and publishing resumes. Also: a stream left by
// the older code (a week's age limit, discard old, no byte limit) is moved to the new limits without
// losing a message, and what no consumer needs (old outcomes) goes while dead letters stay.
import { connect, DiscardPolicy, type NatsConnection } from "nats";
import { register } from "prom-client";
import { EXECUTIONS_STREAM, EXECUTIONS_STREAM_CONFIG, SUBJECT_OUTCOME, watchStreamFill } from "@agentic/platform";
import { startNatsServer, waitFor } from "@agentic/testing";
import { SUBJECT_DEAD_LETTER } from "../../src/bus/dead-letter";
import { SettlementKind, assertLedgerConsistent, publishSettlement, startTestLedger, type TestLedger, openMemoryStore } from "../harness";
import { uid, useNatsServer } from "../support";

const nats = useNatsServer();
const LIMIT = 48 * 1024;

/** The value of a gauge in /metrics for `stream`, as Prometheus would scrape it. */
async function scraped(name: string, stream = EXECUTIONS_STREAM): Promise<number | undefined> {
  const text = await register.metrics();
  const line = text.split("\n").find((l) => l.startsWith(`${name}{stream="${stream}"}`));
  return line === undefined ? undefined : Number(line.split(" ")[1]);
}

/** JetStream's reason for refusing a publish, or "accepted". */
const refusal = (publish: Promise<unknown>) =>
  publish.then(
    () => "accepted",
    (err: { message: string; api_error?: { err_code?: number; description?: string } }) =>
      err.api_error ? `${err.api_error.err_code}: ${err.api_error.description}` : err.message,
  );

describe("the EXECUTIONS stream at its byte limit", () => {
  const running: TestLedger[] = [];
  const connections: NatsConnection[] = [];
  afterAll(async () => {
    await Promise.all(running.map((l) => l.stop()));
    await Promise.all(connections.map((nc) => nc.close()));
  });

  it("refuses new captures while no ledger applies them, loses none, and takes them again once the ledger caught up", async () => {
    const store = await openMemoryStore();
    const stream = { maxBytes: LIMIT, trimIntervalMs: 50 };
    const first = await startTestLedger({ natsUrl: nats().url, store, stream });
    running.push(first);
    const userId = uid("user");
    await first.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 10_000, reason: "" });
    // Executions in flight when the ledger went away: each holds, then publishes its capture.
    const holds = Array.from({ length: 400 }, () => uid("att"));
    for (const holdId of holds) await first.client.holdCredits({ holdId, userId, amountCredits: 5, ttlMs: 0, routeKey: "" });
    await first.stop();

    const executor = await connect({ servers: nats().url }); // publishes as the executor does
    connections.push(executor);
    const jsm = await executor.jetstreamManager();
    const unwatch = watchStreamFill(jsm); // what every ledger pod reports
    // A capture as the executor sends it: with its usage item.
    const usage = {
      productKey: "email.send",
      capabilityKey: "email.send",
      routeKey: "email.send.resend",
      provider: "resend",
      networkKey: "",
      status: "succeeded",
      durationMs: 412,
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      agentName: "alpha_agent",
    };
    const capture = (holdId: string) =>
      publishSettlement(executor, { holdId, userId, kind: SettlementKind.SETTLEMENT_KIND_CAPTURE, capturedCredits: 3, usage });

    const stored: string[] = [];
    let refused: { holdId: string; error: string } | undefined;
    for (const holdId of holds) {
      const result = await refusal(capture(holdId));
      if (result !== "accepted") {
        refused = { holdId, error: result };
        break;
      }
      stored.push(holdId);
    }
    // Full: the next capture is refused (the executor answers SETTLEMENT_UNCONFIRMED for it), and
    // nothing stored was dropped to make room.
    expect(refused?.error).toBe("10077: maximum bytes exceeded");
    expect(stored.length).toBeGreaterThan(100);
    const full = await jsm.streams.info(EXECUTIONS_STREAM);
    expect(full.state).toMatchObject({ first_seq: 1, messages: stored.length });
    expect(full.state.bytes).toBeLessThanOrEqual(LIMIT);
    // A republish of a stored capture (its PubAck was lost) is still answered, as a duplicate.
    await expect(capture(stored[0]!)).resolves.toMatchObject({ duplicate: true });
    // The alert's metric: the stream at its limit.
    expect(await scraped("nats_stream_max_bytes")).toBe(LIMIT);
    expect((await scraped("nats_stream_bytes"))! / LIMIT).toBeGreaterThan(0.95);

    // The ledger comes back: it applies what waited, trims it, and the refused capture goes through.
    const second = await startTestLedger({ natsUrl: nats().url, store, stream });
    running.push(second);
    await waitFor(async () => (await store.getHold(stored.at(-1)!))?.state === "captured", {
      timeoutMs: 20_000,
      what: "the ledger to apply the captures that waited",
    });
    await waitFor(async () => (await scraped("nats_stream_bytes"))! < LIMIT / 2, { what: "the trimmer to make room" });
    await expect(capture(refused!.holdId)).resolves.toMatchObject({ duplicate: false });
    for (const holdId of [...stored, refused!.holdId]) await second.waitForSettlement(holdId);

    // Every capture applied exactly once, none lost.
    for (const holdId of [...stored, refused!.holdId]) expect((await store.getHold(holdId))!.state).toBe("captured");
    expect(second.settlements.filter((s) => s.result === "applied")).toHaveLength(stored.length + 1);
    const charged = (stored.length + 1) * 3;
    const stillHeld = (holds.length - stored.length - 1) * 5;
    expect((await second.client.getWallet({ userId })).wallet).toEqual({
      userId,
      balanceCredits: 10_000 - charged - stillHeld,
      heldCredits: stillHeld,
    });
    await assertLedgerConsistent(store);
    unwatch();
  });
});

describe("a stream left by the older code", () => {
  it("is moved to discard new, no age limit and the byte limit without losing a message, once it fits", async () => {
    const server = await startNatsServer();
    const nc = await connect({ servers: server.url });
    const store = await openMemoryStore();
    let ledger: TestLedger | undefined;
    try {
      const jsm = await nc.jetstreamManager();
      // As ensureExecutionsStream created it before: a week's age limit, discard old, no byte limit.
      await jsm.streams.add({ ...EXECUTIONS_STREAM_CONFIG, discard: DiscardPolicy.Old, max_age: 7 * 86_400e9, max_bytes: -1 });
      const userId = uid("user");
      const seeded = await startTestLedger({ natsUrl: server.url, store, stream: { maxBytes: 1024 ** 3 } });
      await seeded.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 1_000, reason: "" });
      const holds = Array.from({ length: 40 }, () => uid("att"));
      for (const holdId of holds) await seeded.client.holdCredits({ holdId, userId, amountCredits: 5, ttlMs: 0, routeKey: "" });
      await seeded.stop();
      // Put the older config back (the seeding ledger moved it), then fill it past the new limit.
      const old = await jsm.streams.info(EXECUTIONS_STREAM);
      await jsm.streams.update(EXECUTIONS_STREAM, { ...old.config, discard: DiscardPolicy.Old, max_age: 7 * 86_400e9, max_bytes: -1 });
      for (const holdId of holds) {
        await publishSettlement(nc, { holdId, userId, kind: SettlementKind.SETTLEMENT_KIND_CAPTURE, capturedCredits: 2 });
      }
      const before = await jsm.streams.info(EXECUTIONS_STREAM);
      const limit = Math.floor(before.state.bytes / 2); // below what it holds: must not be set yet

      ledger = await startTestLedger({ natsUrl: server.url, store, stream: { maxBytes: limit, trimIntervalMs: 50 } });
      const started = await jsm.streams.info(EXECUTIONS_STREAM);
      expect(started.config).toMatchObject({ discard: DiscardPolicy.New, max_age: 0, max_bytes: -1 });
      for (const holdId of holds) await ledger.waitForSettlement(holdId);
      // Applied and trimmed (the stream is over half of its limit), then the limit is set.
      await waitFor(async () => (await jsm.streams.info(EXECUTIONS_STREAM)).config.max_bytes === limit, {
        what: "the byte limit once the stream fits",
      });
      expect((await ledger.client.getWallet({ userId })).wallet).toEqual({ userId, balanceCredits: 1_000 - 40 * 2, heldCredits: 0 });
      await assertLedgerConsistent(store);
    } finally {
      await ledger?.stop();
      await nc.close();
      await server.stop();
    }
  });
});

describe("trimming", () => {
  it("removes outcomes older than the keep window and applied settlements, and keeps dead letters for operators", async () => {
    const server = await startNatsServer();
    const nc = await connect({ servers: server.url });
    let ledger: TestLedger | undefined;
    try {
      ledger = await startTestLedger({ natsUrl: server.url, stream: { keepMs: 1_500, trimIntervalMs: 50 } });
      const userId = uid("user");
      const holdId = uid("att");
      await ledger.client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 100, reason: "" });
      await ledger.client.holdCredits({ holdId, userId, amountCredits: 5, ttlMs: 0, routeKey: "" });
      const js = nc.jetstream();
      await js.publish(SUBJECT_OUTCOME, new Uint8Array(8));
      await js.publish(SUBJECT_DEAD_LETTER, new Uint8Array(8));
      await publishSettlement(nc, { holdId, userId, kind: SettlementKind.SETTLEMENT_KIND_CAPTURE, capturedCredits: 5 });
      await ledger.waitForSettlement(holdId);

      const jsm = await nc.jetstreamManager();
      const subjects = async () => {
        const info = await jsm.streams.info(EXECUTIONS_STREAM, { subjects_filter: ">" });
        return info.state.subjects ?? {};
      };
      // Right after: all three are still there (an operator, or a router starting, may read them).
      expect(Object.keys(await subjects()).sort()).toEqual([SUBJECT_DEAD_LETTER, SUBJECT_OUTCOME, "executions.settled"]);
      await waitFor(async () => Object.keys(await subjects()).length === 1, { what: "the outcome and the applied capture to go" });
      expect(await subjects()).toEqual({ [SUBJECT_DEAD_LETTER]: 1 });
    } finally {
      await ledger?.stop();
      await nc.close();
      await server.stop();
    }
  });
});
