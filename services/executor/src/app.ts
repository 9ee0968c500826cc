// Starts an executor on given clients: the EXECUTIONS stream, the approvals bucket, catalog cache, rails and provider
// adapters from config, the settlement and outcome publishers, the execution orchestration, the gRPC
// server (bound, health SERVING). `stop()` undoes it in reverse, health off first. main.ts runs it for
// production and local use; test/harness.ts runs the very same wiring in tests.
import type { NatsConnection } from "nats";
import type { OutcomeConsumer } from "@agentic/ranking";
import { CatalogCache, type CatalogSource } from "@agentic/clients";
import {
  beginServerStop,
  bindServer,
  createHealth,
  createTokenVerifier,
  currentTraceId,
  assertMaxPayloadFits,
  ensureExecutionsStream,
  openVendorQuotaBuckets,
  sentTogetherPerTurn,
  servingAt,
  serverMaxPayload,
  whenDependenciesAnswer,
  type Logger,
} from "@agentic/platform";
import { createKvApprovalStore } from "./approvals/kv-approval-store";
import { createOutcomePublisher } from "./bus/outcome-publisher";
import { createSettlementPublisher } from "./bus/settlement-publisher";
import { executeAnswerBoundMs, executionSettings, type Config } from "./config";
import { createExecutor } from "./domain/executor";
import { LARGEST_SETTLEMENT_BYTES } from "./domain/settlement-size";
import type { LedgerPort } from "./domain/ports";
import { outcomeRecords } from "./ledger-record";
import { createDrain } from "./drain";
import { createExecutorMetrics, executionsInFlightFrom } from "./metrics";
import { createProviderRegistry, providersConfigFromEnv } from "./providers";
import { createRails, railsConfigFromEnv } from "./rails";
import { createKvVendorQuota } from "./quota/kv-vendor-quota";
import { startLocalRanking } from "./ranking/local-ranking";
import { ledgerPort, routerPort } from "./remote-ports";
import { createExecutorServer, EXECUTOR_SERVICE_NAME } from "./server";
import { createAttemptTracer } from "./tracing";

export interface ExecutorAppOptions {
  config: Config;
  /** Catalog client (one per process). */
  catalog: CatalogSource;
  /** Ledger client: HoldCredits, GetHold and the idempotency records. */
  ledger: LedgerPort;
  /** Connected NATS with JetStream; the EXECUTIONS stream is created (or raised to NATS_STREAM_REPLICAS) here. */
  nc: NatsConnection;
  logger: Logger;
  /** host:port to bind, e.g. "0.0.0.0:50053" or "127.0.0.1:0". */
  bindAddress: string;
  /** How long gRPC's own stop waits once the drain is over (only refusals can be in flight then); default 1 s. */
  grpcStopGraceMs?: number;
}

export interface ExecutorApp {
  port: number;
  /**
   * Health NOT_SERVING, no new connection or call (one that raced the close is refused, UNAVAILABLE
   * EXECUTOR_DRAINING), every execution in flight finished with its settlement and stored result,
   * then gRPC stopped, outcomes flushed, the catalog poll stopped. Adapters stay open. Bounded by the
   * caller (main.ts: SHUTDOWN_DEADLINE_MS).
   */
  stop(): Promise<void>;
  /** Calls in flight and work they left (results being stored), as a stop waits for them. */
  readonly inFlight: number;
  /** The outcome consumer feeding the ranking's route health (`applied`: outcomes applied so far). */
  readonly rankingOutcomes: OutcomeConsumer;
}

export async function startExecutorApp(opts: ExecutorAppOptions): Promise<ExecutorApp> {
  const { config, logger } = opts;
  // A capture carries a keyed answer whole: a server that cannot take the largest one would lose its charge after the vendor was paid.
  assertMaxPayloadFits(
    opts.nc,
    LARGEST_SETTLEMENT_BYTES,
    "the largest settlement the executor publishes (a keyed answer of up to 2 MiB read)",
  );
  // Settlements and outcomes are published to it: it must exist before the first execution.
  await ensureExecutionsStream(await opts.nc.jetstreamManager(), { replicas: config.NATS_STREAM_REPLICAS });
  // Approvals issued on our side (broadcast quotes): the bucket must exist before the first quote.
  const approvals = await createKvApprovalStore(opts.nc, { replicas: config.NATS_STREAM_REPLICAS, maxBytes: config.APPROVALS_MAX_BYTES });
  const rails = createRails(railsConfigFromEnv(config));
  const providers = createProviderRegistry(providersConfigFromEnv(config), { providerTimeoutMs: config.PROVIDER_TIMEOUT_MS });
  const catalog = new CatalogCache(opts.catalog, { refreshMs: config.CATALOG_REFRESH_MS, logger });
  catalog.start();

  // Every call and the result it stores after its answer, even without an Idempotency-Key, is waited for on stop.
  const drain = createDrain();
  executionsInFlightFrom(() => drain.inFlight);
  const ledger = ledgerPort(opts.ledger);
  const completeExecution: typeof ledger.completeExecution = (req, callOpts) => drain.follow(ledger.completeExecution(req, callOpts));

  // The settlements and route outcomes of the executes answered in one event-loop turn go out in one
  // socket write (each execute publishes both): one batch shared by the two publishers.
  const js = opts.nc.jetstream();
  const publisher = { publish: sentTogetherPerTurn(js.publish.bind(js)) };
  const settle = createSettlementPublisher({ js: publisher, budgetMs: config.SETTLEMENT_PUBLISH_TIMEOUT_MS, logger });
  const outcomes = createOutcomePublisher(publisher, logger);
  // Opened once: the executor takes from the counters and its ranking reads them.
  const vendorQuotaBuckets = await openVendorQuotaBuckets(opts.nc, { replicas: config.NATS_STREAM_REPLICAS, ensureConfig: true });
  const vendorQuota = createKvVendorQuota(vendorQuotaBuckets, { logger });
  const grpcHealth = createHealth([EXECUTOR_SERVICE_NAME]);
  // The ranking runs here, from the router's shared state (no router call per execute). Should its
  // outcome feed die, health goes NOT_SERVING: executes would rank on frozen route health.
  let outcomeFeedDead = false;
  const ranking = await startLocalRanking({
    nc: opts.nc,
    catalog,
    config,
    logger,
    vendorQuotaBuckets,
    onFeedFailed: () => {
      outcomeFeedDead = true;
      grpcHealth.setServing(false);
    },
  });
  const executor = createExecutor({
    catalog,
    router: routerPort(ranking.router),
    ledger: { ...ledger, completeExecution },
    records: outcomeRecords,
    bus: { settle, reportOutcome: (o) => outcomes.publish(o), maxMessageBytes: () => serverMaxPayload(opts.nc) },
    rails,
    providers,
    metrics: createExecutorMetrics(),
    tracer: createAttemptTracer(),
    vendorQuota,
    logger,
    traceId: currentTraceId,
    settings: executionSettings(config),
    approvals,
  });

  const server = createExecutorServer({
    executor,
    grpcHealth,
    logger,
    verifier: createTokenVerifier(config.TRUSTED_SERVICE_KEYS),
    drain,
    executionBudgetMs: config.EXECUTION_BUDGET_MS,
    longestCallMs: executeAnswerBoundMs(config),
  });
  const port = await bindServer(server, opts.bindAddress);
  // SERVING once the catalog has been read, the ledger answers and route health has replayed, so no execute is sent
  // here before it can run; never later than the wait's bound, so a dependency down at start cannot hold it.
  const dependencyWait = new AbortController();
  let rankingCaughtUp = false;
  void ranking.outcomes.caughtUp.then(() => (rankingCaughtUp = true));
  void whenDependenciesAnswer(
    {
      catalog: () => catalog.refresh().then(() => true),
      ledger: servingAt(config.LEDGER_ADDR),
      // A new replica ranks from the same route health as the others: the outcome replay first.
      "route health": async () => rankingCaughtUp,
    },
    { logger, signal: dependencyWait.signal },
  ).then(() => grpcHealth.setServing(!dependencyWait.signal.aborted && !outcomeFeedDead));
  logger.info({ port, rails: rails.networks, providers: providers.providerKeys }, "executor serving");

  let stopping: Promise<void> | undefined;
  return {
    port,
    stop() {
      stopping ??= (async () => {
        dependencyWait.abort();
        grpcHealth.setServing(false);
        // No new connection or call from now on: callers' channels are told (GOAWAY) and send their next
        // executes to another executor. A call that raced the close is refused (EXECUTOR_DRAINING) before
        // anything is held, and the gateway asks again; the executions in flight finish and settle.
        const closing = beginServerStop(server);
        logger.info({ inFlight: drain.inFlight }, "draining: new calls refused, calls in flight finish and settle");
        await drain.drain();
        const grace = new Promise<void>((resolve) => setTimeout(resolve, opts.grpcStopGraceMs ?? 1_000).unref());
        await Promise.race([closing.closed, grace]);
        closing.force();
        await executor.drain();
        await outcomes.drain();
        await ranking.stop();
        catalog.stop();
        logger.info("drained: every call finished");
      })();
      return stopping;
    },
    rankingOutcomes: ranking.outcomes,
    get inFlight() {
      return drain.inFlight;
    },
  };
}
