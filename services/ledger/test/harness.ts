// startTestLedger(): a real ledger for tests — the production wiring (src/app.ts: domain, gRPC
// server with health, durable settlement consumer, expiry sweeper) on 127.0.0.1:<random port>,
// against a real nats-server, with SQLite in memory (openMemoryStore) unless you pass a store. Used by the ledger's own
// integration tests and by other services' tests (gateway, executor, router):
//
//   import { startNatsServer } from "@agentic/testing";
//   import { startTestLedger, testApiKey } from "@agentic/ledger/testing";
//
//   const nats = await startNatsServer();
//   const key = testApiKey();
//   const ledger = await startTestLedger({ natsUrl: nats.url, apiKeys: `${key}:user-1`, grants: { "user-1": 1_000 } });
//   // LEDGER_ADDR for the code under test: ledger.address
//   await ledger.client.holdCredits({ holdId: "att_1", userId: "user-1", amountCredits: 5, ttlMs: 0, routeKey: "" });
//   await publishSettlement(ledger.nc, { holdId: "att_1", userId: "user-1", kind: SettlementKind.SETTLEMENT_KIND_CAPTURE, capturedCredits: 5 });
//   await ledger.waitForSettlement("att_1");
//   await ledger.assertConsistent();   // e.g. in afterEach
//   await ledger.stop(); await nats.stop();
//
// Callers prove who they are (src/access.ts): the ledger trusts testIdentities() of
// @agentic/testing, which the other harnesses use too, and `client` signs each call as the
// first service src/access.ts allows for that RPC (HoldCredits as executor, GrantCredits as admin).
//
// Every wait is on an event or a condition, bounded by a timeout, never a fixed sleep.
import { EventEmitter } from "node:events";
import { connect, type NatsConnection, type PubAck } from "nats";
import {
  SUBJECT_SETTLED,
  createLogger,
  natsAuthOptions,
  splitRpcPath,
  traceHeaders,
  trustedServiceKeysSchema,
  type CallIdentity,
} from "@agentic/platform";
import { testIdentities, whenConnected } from "@agentic/testing";
import { createLedgerClient, type LedgerClient } from "@agentic/clients";
import { ExecutionSettled, SettlementKind, type DeepPartial } from "@agentic/proto/events/v1";
import { LEDGER_ACCESS } from "../src/access";
import { startLedgerApp, type LedgerApp, type TopUpOptions } from "../src/app";
import { apiKeysSchema } from "../src/config";
import { generateApiKey } from "../src/domain/api-keys";
import type { Ledger } from "../src/domain/ledger";
import type { Hold } from "../src/domain/types";
import type { SettlementOutcome } from "../src/bus/settlement-consumer";
import { IN_MEMORY, SqliteLedgerStore } from "../src/store/sqlite/sqlite-store";
import type { LedgerStore } from "../src/domain/ports";
import { assertLedgerConsistent, findLedgerViolations } from "./consistency";

export { SettlementKind, assertLedgerConsistent, findLedgerViolations };
export type { SettlementOutcome };
export { topUpTerms } from "../src/domain/top-up-terms";

export interface StartTestLedgerOptions {
  /** A nats-server with JetStream, e.g. `(await startNatsServer()).url`; the EXECUTIONS stream is created if missing (1 replica). */
  natsUrl: string;
  /** AGENTIC_API_KEYS syntax: `aak_...:user1,aak_...:user2` (make keys with testApiKey()). */
  apiKeys?: string;
  /** Credits granted at start, per user: `{ "user-1": 1000 }`. */
  grants?: Record<string, number>;
  /** Default hold lifetime in ms (default 120000, as in production). */
  holdTtlMs?: number;
  /** Expiry sweep interval in ms (default: a quarter of the TTL, between 20 ms and 1 s). */
  sweepIntervalMs?: number;
  /** Store to use, e.g. one shared with an earlier ledger to simulate a restart (openMemoryStore()); not closed by stop(). Default: a new SQLite store in memory, closed by stop(). */
  store?: LedgerStore;
  settlementConcurrency?: number;
  clock?: () => Date;
  /** pino level (default LEDGER_TEST_LOG_LEVEL, else "silent"). */
  logLevel?: string;
  /** NATS user to connect as (startNatsServer({ authorization: true }).users.ledger); none by default. */
  natsCredentials?: { user: string; pass: string };
  /** TRUSTED_SERVICE_KEYS (default: every identity of testIdentities()). */
  trustedKeys?: string;
  /** Runs as APP_ENV=test (default true): development-only callers allowed; false behaves as production. */
  development?: boolean;
  /** Takes x402 top-ups (e.g. with the sandbox's facilitator); without it TopUpWithPayment answers TOP_UP_UNAVAILABLE. */
  topUp?: TopUpOptions;
  /** Uncharged outcomes of vendor work on our keys one user may have per UTC day (default: production's). */
  unchargedDailyAllowance?: number;
  /** NATS_STREAM_MAX_BYTES (default 1 GiB), NATS_STREAM_KEEP_MS (default 1 h) and how often the stream is trimmed (default 10 s). */
  stream?: { maxBytes?: number; keepMs?: number; trimIntervalMs?: number };
}

export interface TestLedger {
  /** "127.0.0.1:<port>": what LEDGER_ADDR should be for the code under test. */
  address: string;
  port: number;
  /** createLedgerClient from @agentic/clients (5 s deadline): full requests, `(request, {deadlineMs?, metadata?})`. */
  client: LedgerClient;
  /** The harness's own NATS connection (publish settlements with publishSettlement(ledger.nc, ...)). */
  nc: NatsConnection;
  store: LedgerStore;
  /** The domain, for direct calls that need no gRPC. */
  ledger: Ledger;
  app: LedgerApp;
  /** Every settlement message handled so far, in order. */
  settlements: SettlementOutcome[];
  /** Every hold the sweeper released so far, in order. */
  expired: Hold[];
  /** Resolves once `count` (default 1) settlement messages for `holdId` were handled (applied or ignored) and acked. */
  waitForSettlement(holdId: string, opts?: { count?: number; timeoutMs?: number }): Promise<SettlementOutcome[]>;
  /** Resolves once the sweeper released `holdId`. */
  waitForExpiry(holdId: string, opts?: { timeoutMs?: number }): Promise<Hold>;
  /** Throws unless every wallet (or the given users) equals its journal (see test/consistency.ts). */
  assertConsistent(userIds?: string[]): Promise<void>;
  /** Stops the ledger (health off, consumer drained, gRPC stopped), closes the client and NATS. Idempotent. */
  stop(): Promise<void>;
}

/** Signs each call as the first service src/access.ts allows for its RPC (admin for RPCs of nobody else). */
export function tableIdentity(): CallIdentity {
  const { identity } = testIdentities();
  return {
    tokenFor(method) {
      const first = LEDGER_ACCESS[splitRpcPath(method).method]?.find((entry) => typeof entry === "string");
      return identity(typeof first === "string" ? first : "admin").tokenFor(method);
    },
  };
}

/** A fresh well-formed API key (`aak_` + 32 base62 characters) for AGENTIC_API_KEYS or apiKeys. */
export function testApiKey(): string {
  return generateApiKey();
}

/** A new, empty ledger store: SQLite in memory (every open is its own store), the same code as the durable default. */
export function openMemoryStore(): Promise<SqliteLedgerStore> {
  return SqliteLedgerStore.open({ path: IN_MEMORY });
}

/** Starts a ledger; see the header of this file. */
export async function startTestLedger(opts: StartTestLedgerOptions): Promise<TestLedger> {
  const apiKeys = apiKeysSchema.safeParse(opts.apiKeys ?? "");
  if (!apiKeys.success) throw new Error(`startTestLedger: apiKeys: ${apiKeys.error.issues.map((i) => i.message).join("; ")}`);
  const holdTtlMs = opts.holdTtlMs ?? 120_000;
  const store = opts.store ?? (await openMemoryStore());
  const events = new EventEmitter().setMaxListeners(0); // one listener per pending wait
  const settlements: SettlementOutcome[] = [];
  const expired: Hold[] = [];

  const nc = await connect({ servers: opts.natsUrl, name: "ledger-test", ...natsAuthOptions(opts.natsCredentials) });
  let app: LedgerApp;
  try {
    app = await startLedgerApp({
      store,
      nc,
      logger: createLogger("ledger", opts.logLevel ?? process.env.LEDGER_TEST_LOG_LEVEL ?? "silent"),
      bindAddress: "127.0.0.1:0",
      trustedKeys: trustedServiceKeysSchema.parse(opts.trustedKeys ?? testIdentities().trustedKeys),
      development: opts.development ?? true,
      holdTtlMs,
      sweepIntervalMs: opts.sweepIntervalMs ?? Math.min(1_000, Math.max(20, Math.floor(holdTtlMs / 4))),
      apiKeys: apiKeys.data,
      settlementConcurrency: opts.settlementConcurrency,
      clock: opts.clock,
      grpcStopGraceMs: 2_000,
      ...(opts.topUp ? { topUp: opts.topUp } : {}),
      streamMaxBytes: opts.stream?.maxBytes,
      streamKeepMs: opts.stream?.keepMs,
      streamTrimIntervalMs: opts.stream?.trimIntervalMs,
      ...(opts.unchargedDailyAllowance !== undefined ? { unchargedDailyAllowance: opts.unchargedDailyAllowance } : {}),
      onSettlement: (outcome) => {
        settlements.push(outcome);
        events.emit("settlement", outcome);
      },
      onExpired: (hold) => {
        expired.push(hold);
        events.emit("expired", hold);
      },
    });
  } catch (err) {
    await nc.close();
    if (!opts.store) await store.close();
    throw err;
  }

  for (const [userId, amountCredits] of Object.entries(opts.grants ?? {})) {
    await app.ledger.grantCredits({ grantId: `grant_test_${userId}_${amountCredits}`, userId, amountCredits, reason: "test" });
  }

  const address = `127.0.0.1:${app.port}`;
  const client = createLedgerClient(address, 5_000, tableIdentity());

  function waitUntil<T>(event: string, check: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    const now = check();
    if (now !== undefined) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const onEvent = () => {
        const value = check();
        if (value === undefined) return;
        cleanup();
        resolve(value);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`startTestLedger: timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        events.off(event, onEvent);
      };
      events.on(event, onEvent);
    });
  }

  let stopped: Promise<void> | undefined;
  return whenConnected(client, {
    address,
    port: app.port,
    client,
    nc,
    store,
    ledger: app.ledger,
    app,
    settlements,
    expired,
    waitForSettlement(holdId, { count = 1, timeoutMs = 10_000 } = {}) {
      return waitUntil(
        "settlement",
        () => {
          const seen = settlements.filter((s) => s.holdId === holdId);
          return seen.length >= count ? seen : undefined;
        },
        timeoutMs,
        `${count} settlement(s) of ${holdId}`,
      );
    },
    waitForExpiry(holdId, { timeoutMs = 10_000 } = {}) {
      return waitUntil("expired", () => expired.find((h) => h.holdId === holdId), timeoutMs, `expiry of ${holdId}`);
    },
    assertConsistent: (userIds) => assertLedgerConsistent(store, userIds),
    stop() {
      stopped ??= (async () => {
        client.close();
        await app.stop();
        await nc.close();
        if (!opts.store) await store.close();
      })();
      return stopped;
    },
  });
}

/**
 * Publishes an ExecutionSettled exactly as the executor must: subject executions.settled, payload
 * encoded with the generated codec, `Nats-Msg-Id` = the hold id (override `msgId` to simulate a
 * republish after the de-duplication window), W3C trace context in the headers.
 */
export async function publishSettlement(
  nc: NatsConnection,
  event: DeepPartial<ExecutionSettled>,
  opts: { msgId?: string } = {},
): Promise<PubAck> {
  const message = ExecutionSettled.fromPartial(event);
  return nc.jetstream().publish(SUBJECT_SETTLED, ExecutionSettled.encode(message).finish(), {
    msgID: opts.msgId ?? message.holdId,
    headers: traceHeaders(),
  });
}
