// A capture for a hold the store does not know is not dropped: it is redelivered until the hold
// appears (then applied once), or, after the configured number of deliveries, copied to
// executions.dead (stored by the EXECUTIONS stream) and terminated. A settlement naming another
// user goes there at once. Real nats-server, the real ledger wiring (src/app.ts) with short retries.
import { EventEmitter } from "node:events";
import { connect, type NatsConnection } from "nats";
import { EXECUTIONS_STREAM, SUBJECT_SETTLED, createLogger } from "@agentic/platform";
import { waitFor, testIdentities } from "@agentic/testing";
import { startLedgerApp, type LedgerApp } from "../../src/app";
import { DEAD_LETTER_HEADERS, SUBJECT_DEAD_LETTER } from "../../src/bus/dead-letter";
import { SETTLEMENT_DURABLE, type SettlementOutcome, type SettlementRetry } from "../../src/bus/settlement-consumer";
import { settlementsDeadLetteredTotal } from "../../src/metrics";
import type { LedgerStore } from "../../src/domain/ports";
import { SettlementKind, assertLedgerConsistent, publishSettlement, openMemoryStore } from "../harness";
import { uid, useNatsServer } from "../support";

const nats = useNatsServer();
const CAPTURE = SettlementKind.SETTLEMENT_KIND_CAPTURE;
/** Deliveries before a capture for an unknown hold is dead-lettered, in these tests. */
const MAX_DELIVERIES = 4;

let nc: NatsConnection;
let app: LedgerApp;
let store: LedgerStore;
/** Lets a test hold back redeliveries (ms before the next one) while it acts between two of them. */
let retryDelayMs = 10;
const events = new EventEmitter().setMaxListeners(0);
const outcomes: SettlementOutcome[] = [];
const retries: SettlementRetry[] = [];

/** Resolves with the first (past or future) event of `kind` for `holdId` that satisfies `match`. */
function next<T extends { holdId: string }>(
  kind: "outcome" | "retry",
  holdId: string,
  match: (e: T) => boolean = () => true,
  timeoutMs = 5_000,
): Promise<T> {
  const seen = (kind === "outcome" ? outcomes : retries) as unknown as T[];
  const found = seen.find((e) => e.holdId === holdId && match(e));
  if (found) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      events.off(kind, listener);
      reject(new Error(`timed out after ${timeoutMs} ms waiting for a ${kind} of ${holdId}`));
    }, timeoutMs);
    const listener = (e: T) => {
      if (e.holdId !== holdId || !match(e)) return;
      clearTimeout(timer);
      events.off(kind, listener);
      resolve(e);
    };
    events.on(kind, listener);
  });
}

async function deadLettered(reason: string): Promise<number> {
  return (await settlementsDeadLetteredTotal.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;
}

async function consumerIdle(): Promise<void> {
  const jsm = await nc.jetstreamManager();
  await waitFor(
    async () => {
      const info = await jsm.consumers.info(EXECUTIONS_STREAM, SETTLEMENT_DURABLE);
      return info.num_pending === 0 && info.num_ack_pending === 0;
    },
    { timeoutMs: 5_000, what: "the settlement consumer to go idle" },
  );
}

beforeAll(async () => {
  nc = await connect({ servers: nats().url });
  store = await openMemoryStore();
  app = await startLedgerApp({
    store,
    nc,
    logger: createLogger("ledger", process.env.LEDGER_TEST_LOG_LEVEL ?? "silent"),
    bindAddress: "127.0.0.1:0",
    trustedKeys: testIdentities().trusted,
    development: true,
    holdTtlMs: 60_000,
    sweepIntervalMs: 1_000,
    grpcStopGraceMs: 2_000,
    settlementRetry: { unknownHoldMaxDeliveries: MAX_DELIVERIES, delayMs: () => retryDelayMs },
    onSettlement: (o) => {
      outcomes.push(o);
      events.emit("outcome", o);
    },
    onSettlementRetry: (r) => {
      retries.push(r);
      events.emit("retry", r);
    },
  });
});

afterAll(async () => {
  await app?.stop();
  await nc?.close();
});

afterEach(async () => {
  retryDelayMs = 10;
  await assertLedgerConsistent(store);
});

describe("a capture for a hold the store does not know", () => {
  it("is redelivered, and applied exactly once when the hold appears", async () => {
    const userId = uid("user");
    const holdId = uid("hold");
    await app.ledger.grantCredits({ grantId: uid("grant"), userId, amountCredits: 100, reason: "" });
    retryDelayMs = 500; // room to create the hold (in memory, microseconds) before the next delivery

    await publishSettlement(nc, {
      holdId,
      userId,
      kind: CAPTURE,
      capturedCredits: 30,
      usage: { usageId: uid("use"), status: "succeeded" },
    });
    await expect(next<SettlementRetry>("retry", holdId)).resolves.toMatchObject({ result: "unknown_hold", deliveries: 1, retryInMs: 500 });
    expect(outcomes.filter((o) => o.holdId === holdId)).toEqual([]); // neither acked nor dead-lettered

    await app.ledger.holdCredits({ holdId, userId, amountCredits: 40, ttlMs: 0, routeKey: "email.send/resend" });
    await expect(next<SettlementOutcome>("outcome", holdId)).resolves.toMatchObject({
      result: "applied",
      hold: { state: "captured", capturedCredits: 30 },
    });

    await consumerIdle();
    expect(outcomes.filter((o) => o.holdId === holdId)).toHaveLength(1);
    expect(await store.getWallet(userId)).toEqual({ userId, balanceCredits: 70, heldCredits: 0 });
    const settled = (await app.ledger.listJournal(userId)).entries.filter((e) => e.referenceId === holdId && e.kind !== "hold");
    expect(settled).toMatchObject([{ kind: "capture", amountCredits: 10, heldDeltaCredits: -40 }]);
  });

  it("is published to executions.dead after the last delivery, with where it came from, then terminated", async () => {
    const userId = uid("user");
    const holdId = uid("hold");
    const before = await deadLettered("unknown_hold");

    const ack = await publishSettlement(nc, { holdId, userId, kind: CAPTURE, capturedCredits: 30 });
    await expect(next<SettlementOutcome>("outcome", holdId)).resolves.toMatchObject({ result: "unknown_hold", deadLettered: true });
    expect(retries.filter((r) => r.holdId === holdId).map((r) => r.deliveries)).toEqual([1, 2, 3]); // the 4th is dead-lettered
    expect(await deadLettered("unknown_hold")).toBe(before + 1); // ledger_settlements_dead_lettered_total{reason="unknown_hold"}

    // Stored by the EXECUTIONS stream (file storage, the stream's replicas), body unchanged.
    const jsm = await nc.jetstreamManager();
    const original = await jsm.streams.getMessage(EXECUTIONS_STREAM, { seq: ack.seq });
    const dead = await jsm.streams.getMessage(EXECUTIONS_STREAM, { last_by_subj: SUBJECT_DEAD_LETTER });
    expect(dead.subject).toBe(SUBJECT_DEAD_LETTER);
    expect(Buffer.from(dead.data)).toEqual(Buffer.from(original.data));
    expect({
      reason: dead.header.get(DEAD_LETTER_HEADERS.reason),
      subject: dead.header.get(DEAD_LETTER_HEADERS.subject),
      stream: dead.header.get(DEAD_LETTER_HEADERS.stream),
      sequence: dead.header.get(DEAD_LETTER_HEADERS.sequence),
      holdId: dead.header.get(DEAD_LETTER_HEADERS.holdId),
      deliveries: dead.header.get(DEAD_LETTER_HEADERS.deliveries),
    }).toEqual({
      reason: "unknown_hold",
      subject: SUBJECT_SETTLED,
      stream: EXECUTIONS_STREAM,
      sequence: String(ack.seq),
      holdId,
      deliveries: String(MAX_DELIVERIES),
    });

    await consumerIdle(); // terminated: not redelivered
    expect(outcomes.filter((o) => o.holdId === holdId)).toHaveLength(1);
    expect(await store.getHold(holdId)).toBeNull();
  });
});

describe("a settlement naming another user", () => {
  it("is dead-lettered at its first delivery and charges nothing", async () => {
    const userId = uid("user");
    const holdId = uid("hold");
    await app.ledger.grantCredits({ grantId: uid("grant"), userId, amountCredits: 100, reason: "" });
    await app.ledger.holdCredits({ holdId, userId, amountCredits: 40, ttlMs: 0, routeKey: "" });
    const before = await deadLettered("user_mismatch");

    const ack = await publishSettlement(nc, { holdId, userId: uid("intruder"), kind: CAPTURE, capturedCredits: 40 });
    await expect(next<SettlementOutcome>("outcome", holdId)).resolves.toMatchObject({ result: "user_mismatch", deadLettered: true });
    expect(retries.filter((r) => r.holdId === holdId)).toEqual([]);
    expect(await deadLettered("user_mismatch")).toBe(before + 1);

    const dead = await (await nc.jetstreamManager()).streams.getMessage(EXECUTIONS_STREAM, { last_by_subj: SUBJECT_DEAD_LETTER });
    expect([
      dead.header.get(DEAD_LETTER_HEADERS.reason),
      dead.header.get(DEAD_LETTER_HEADERS.sequence),
      dead.header.get(DEAD_LETTER_HEADERS.holdId),
    ]).toEqual(["user_mismatch", String(ack.seq), holdId]);
    await consumerIdle();
    expect(await store.getHold(holdId)).toMatchObject({ state: "held" });
    expect(await store.getWallet(userId)).toEqual({ userId, balanceCredits: 60, heldCredits: 40 });
  });
});
