// Starts a ledger on given adapters, in this order: the store must answer, its identity is announced
// on NATS (refused when another ledger there runs on another store), then the domain, the gRPC server
// (bound), the EXECUTIONS stream (its limits set) and the durable consumer (created if missing), the
// settlement consumer, the stream trimmer, the expiry sweeper, health SERVING; every committed change
// of a wallet is announced on NATS (bus/wallet-announcer.ts); `stop()` undoes it in reverse.
// main.ts runs it for production and local use; test/harness.ts runs the very same wiring in tests.
import type { NatsConnection } from "nats";
import {
  DEFAULT_STREAM_KEEP_MS,
  DEFAULT_STREAM_MAX_BYTES,
  EXECUTIONS_STREAM,
  bindServer,
  createHealth,
  createTokenVerifier,
  ensureExecutionsStream,
  startStreamTrimmer,
  stopServer,
  watchConsumerLag,
  watchStreamFill,
  type Health,
  type StreamTrimmer,
  type Logger,
  type TrustedKeys,
} from "@agentic/platform";
import { createLedger, type Ledger } from "./domain/ledger";
import type { Hold } from "./domain/types";
import type { LedgerStore } from "./domain/ports";
import { createLedgerMetrics } from "./metrics";
import { createLedgerServer, LEDGER_SERVICE_NAME } from "./server";
import {
  SETTLEMENT_DURABLE,
  ensureSettlementConsumer,
  startSettlementConsumer,
  type SettlementConsumer,
  type SettlementOutcome,
  type SettlementRetry,
  type SettlementRetryOptions,
} from "./bus/settlement-consumer";
import { claimStoreIdentity } from "./bus/store-identity";
import { announcingWalletChanges, natsWalletAnnouncer } from "./bus/wallet-announcer";
import { startExpirySweeper, type ExpirySweeper } from "./jobs/expiry-sweeper";
import type { LedgerSettings, TopUpSettings } from "./config";
import { httpFacilitator } from "./facilitator/http-facilitator";
import { startTopUpReconciler, type TopUpReconciler } from "./jobs/top-up-reconciler";
import { createTopUps } from "./domain/top-ups";

/** Top-up settings, and (tests) how often pending top-ups are asked about again. */
export interface TopUpOptions extends TopUpSettings {
  /** How often pending top-ups are asked about again (default 30 s). */
  reconcileIntervalMs?: number;
}

/** The connections and settings of a ledger (main.ts: ledgerSettings(config)), and the hooks tests use. */
export interface LedgerAppOptions extends LedgerSettings {
  store: LedgerStore;
  /** Connected NATS with JetStream; the EXECUTIONS stream is created when missing. */
  nc: NatsConnection;
  logger: Logger;
  /** host:port to bind, e.g. "0.0.0.0:50054" or "127.0.0.1:0". */
  bindAddress: string;
  /** Public keys of the services that may call (TRUSTED_SERVICE_KEYS); src/access.ts says who may call what. */
  trustedKeys: TrustedKeys;
  /** Grace for in-flight calls on stop before they are cut (default 10 s). */
  grpcStopGraceMs?: number;
  clock?: () => Date;
  /** Retries of captures whose hold is unknown, then dead-lettering (defaults: production's; see settlement-consumer.ts). */
  settlementRetry?: SettlementRetryOptions;
  /**
   * The store-identity guard (bus/store-identity.ts): how long an announcement lives without a
   * refresh (default 30 s, how long a crashed ledger blocks another store) and how often it is
   * refreshed (default 10 s).
   */
  storeIdentity?: { ttlMs?: number; refreshMs?: number };
  onSettlement?: (outcome: SettlementOutcome) => void;
  /** A capture for an unknown hold was handed back for a later delivery. */
  onSettlementRetry?: (retry: SettlementRetry) => void;
  onExpired?: (hold: Hold) => void;
  /** Takes x402 top-ups (TOP_UP_*); without it TopUpWithPayment answers TOP_UP_UNAVAILABLE. */
  topUp?: TopUpOptions;
  /** How often the EXECUTIONS stream is trimmed, in ms (default 10 s). */
  streamTrimIntervalMs?: number;
}

export interface LedgerApp {
  port: number;
  ledger: Ledger;
  health: Health;
  sweeper: ExpirySweeper;
  /** Keeps the EXECUTIONS stream to what its consumers still need (tests call trim() to run a pass now). */
  trimmer: StreamTrimmer;
  /** Health NOT_SERVING, drain the consumer, stop the sweeper, stop gRPC, withdraw the store identity. Adapters stay open. */
  stop(): Promise<void>;
}

export async function startLedgerApp(opts: LedgerAppOptions): Promise<LedgerApp> {
  const { nc, logger } = opts;
  // Every committed wallet change is announced on NATS (ledger.wallet.changed) for the routers' wallet caches.
  const store = announcingWalletChanges(opts.store, natsWalletAnnouncer(nc, logger), logger);
  const metrics = createLedgerMetrics();
  await store.ping(); // fail fast, before anything is bound or consumed
  // Before anything is written, bound or consumed: a ledger on another store must not share our settlements.
  const identity = await claimStoreIdentity({
    nc,
    storeId: await store.storeId(),
    logger,
    metrics,
    replicas: opts.streamReplicas,
    ...opts.storeIdentity,
  });

  const health = createHealth([LEDGER_SERVICE_NAME]);
  let server: ReturnType<typeof createLedgerServer> | undefined;
  let ledger: Ledger;
  let port: number;
  let consumer: SettlementConsumer | undefined;
  let sweeper: ExpirySweeper | undefined;
  let unwatchLag = () => {};
  let unwatchFill = () => {};
  let trimmer: StreamTrimmer | undefined;
  let reconciler: TopUpReconciler | undefined;
  try {
    ledger = createLedger({
      store,
      holdTtlMs: opts.holdTtlMs,
      clock: opts.clock,
      logger,
      metrics,
      ...(opts.unchargedDailyAllowance !== undefined ? { unchargedDailyAllowance: opts.unchargedDailyAllowance } : {}),
    });
    for (const { apiKey, userId } of opts.apiKeys ?? []) await ledger.registerApiKey(apiKey, userId);
    const topUps = createTopUps({
      store,
      ...(opts.topUp
        ? { terms: opts.topUp.terms, facilitator: httpFacilitator(opts.topUp.facilitatorUrl, opts.topUp.facilitatorTimeoutMs) }
        : {}),
      // A pending attempt is asked about again only after the facilitator's own timeout has run out.
      retryAfterMs: opts.topUp?.facilitatorTimeoutMs ?? 10_000,
      clock: opts.clock,
      logger,
      metrics,
    });
    server = createLedgerServer({
      ledger,
      health,
      logger,
      verifier: createTokenVerifier(opts.trustedKeys),
      development: opts.development,
      topUps,
    });
    port = await bindServer(server, opts.bindAddress);

    const jsm = await nc.jetstreamManager();
    // The ledger owns the stream's byte limit: it is what keeps an unapplied capture from being dropped.
    const maxBytes = opts.streamMaxBytes ?? DEFAULT_STREAM_MAX_BYTES;
    const stream = await ensureExecutionsStream(jsm, { replicas: opts.streamReplicas, maxBytes });
    if (stream.created || stream.changed.length > 0) logger.info({ stream: EXECUTIONS_STREAM, ...stream }, "EXECUTIONS stream set up");
    for (const note of stream.notes) logger.warn({ stream: EXECUTIONS_STREAM }, note);
    await ensureSettlementConsumer(jsm);
    unwatchLag = watchConsumerLag(jsm, EXECUTIONS_STREAM, SETTLEMENT_DURABLE);
    unwatchFill = watchStreamFill(jsm);
    const started = await startSettlementConsumer({
      nc,
      ledger,
      logger,
      metrics,
      concurrency: opts.settlementConcurrency,
      retry: opts.settlementRetry,
      onOutcome: opts.onSettlement,
      onRetry: opts.onSettlementRetry,
    });
    consumer = started;
    trimmer = startStreamTrimmer({
      jsm,
      settlementConsumer: SETTLEMENT_DURABLE,
      keepMs: opts.streamKeepMs ?? DEFAULT_STREAM_KEEP_MS,
      maxBytes,
      replicas: opts.streamReplicas,
      intervalMs: opts.streamTrimIntervalMs,
      logger,
    });
    sweeper = startExpirySweeper({
      ledger,
      logger,
      metrics,
      intervalMs: opts.sweepIntervalMs,
      hasBacklog: async () => {
        const { pending, ackPending } = await started.backlog();
        return pending + ackPending > 0;
      },
      maxDeferMs: opts.holdTtlMs,
      ...(opts.abandonGraceMs !== undefined ? { abandonGraceMs: opts.abandonGraceMs } : {}),
      onExpired: opts.onExpired,
    });
    if (opts.topUp) reconciler = startTopUpReconciler({ topUps, intervalMs: opts.topUp.reconcileIntervalMs ?? 30_000, logger });
  } catch (err) {
    await reconciler?.stop();
    await sweeper?.stop();
    await trimmer?.stop();
    await consumer?.stop();
    unwatchLag();
    unwatchFill();
    server?.forceShutdown();
    await identity.release();
    throw err;
  }
  health.setServing(true);
  logger.info({ port, holdTtlMs: opts.holdTtlMs, bootstrapKeys: opts.apiKeys?.length ?? 0 }, "ledger serving");

  let stopping: Promise<void> | undefined;
  return {
    port,
    ledger,
    health,
    sweeper,
    trimmer,
    stop() {
      stopping ??= (async () => {
        health.setServing(false);
        unwatchLag();
        unwatchFill();
        await consumer.stop();
        await trimmer.stop();
        await sweeper.stop();
        await reconciler?.stop();
        await stopServer(server, opts.grpcStopGraceMs ?? 10_000);
        await identity.release(); // last: a ledger on another store may start once we no longer consume
      })();
      return stopping;
    },
  };
}
