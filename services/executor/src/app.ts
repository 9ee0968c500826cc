// Starts an executor on given clients: catalog cache, rails and provider adapters from config, the
// settlement and outcome publishers, the execution orchestration, the gRPC server (bound, health
// SERVING). `stop()` undoes it in reverse, health off first. main.ts runs it for production and local
// use; test/harness.ts runs the very same wiring in tests.
import type { NatsConnection } from "nats";
import { bindServer, createHealth, createTokenVerifier, currentTraceId, stopServer, type Logger } from "@agentic/platform";
import { createOutcomePublisher } from "./bus/outcome-publisher";
import { createSettlementPublisher } from "./bus/settlement-publisher";
import { CatalogCache, type CatalogSource } from "@agentic/clients";
import type { Config } from "./config";
import { createExecutor } from "./domain/executor";
import type { LedgerPort, RouterPort } from "./domain/ports";
import { createExecutionMetrics } from "./metrics/execution-metrics";
import { createProviderRegistry, providersConfigFromEnv } from "./providers";
import { createRails, railsConfigFromEnv } from "./rails";
import { createExecutorServer, EXECUTOR_SERVICE_NAME } from "./server";

export interface ExecutorAppOptions {
  config: Config;
  /** Catalog client (one per process). */
  catalog: CatalogSource;
  /** Router client; only Recommend is called. */
  router: RouterPort;
  /** Ledger client: HoldCredits, GetHold and the idempotency records. */
  ledger: LedgerPort;
  /** Connected NATS; the EXECUTIONS stream must exist (ensureExecutionsStream). */
  nc: NatsConnection;
  logger: Logger;
  /** host:port to bind, e.g. "0.0.0.0:50053" or "127.0.0.1:0". */
  bindAddress: string;
  /** Grace for in-flight executions on stop before they are cut (default 20 s: they hold credits). */
  grpcStopGraceMs?: number;
}

export interface ExecutorApp {
  port: number;
  /** Health NOT_SERVING, stop gRPC (in-flight executions finish), flush outcomes, stop the catalog poll. Adapters stay open. */
  stop(): Promise<void>;
}

export async function startExecutorApp(opts: ExecutorAppOptions): Promise<ExecutorApp> {
  const { config, logger } = opts;
  const rails = createRails(railsConfigFromEnv(config));
  const providers = createProviderRegistry(providersConfigFromEnv(config));
  const catalog = new CatalogCache(opts.catalog, { refreshMs: config.CATALOG_REFRESH_MS, logger });
  catalog.start();

  const js = opts.nc.jetstream();
  const settle = createSettlementPublisher({ js, budgetMs: config.SETTLEMENT_PUBLISH_TIMEOUT_MS, logger });
  const outcomes = createOutcomePublisher(js, logger);
  const executor = createExecutor({
    catalog,
    router: opts.router,
    ledger: opts.ledger,
    bus: { settle, reportOutcome: (o) => outcomes.publish(o) },
    rails,
    providers,
    metrics: createExecutionMetrics(),
    logger,
    traceId: currentTraceId,
    settings: {
      providerTimeoutMs: config.PROVIDER_TIMEOUT_MS,
      maxAttempts: config.MAX_ATTEMPTS,
      holdTtlMs: config.HOLD_TTL_MS,
      dependencyDeadlineMs: config.DEPENDENCY_DEADLINE_MS,
      idempotencyLeaseMs: config.IDEMPOTENCY_LEASE_MS,
      idempotencyWaitMs: config.IDEMPOTENCY_WAIT_MS,
    },
  });

  const grpcHealth = createHealth([EXECUTOR_SERVICE_NAME]);
  const server = createExecutorServer({ executor, grpcHealth, logger, verifier: createTokenVerifier(opts.config.TRUSTED_SERVICE_KEYS) });
  const port = await bindServer(server, opts.bindAddress);
  grpcHealth.setServing(true);
  logger.info({ port, rails: rails.networks, providers: providers.providerKeys }, "executor serving");

  let stopping: Promise<void> | undefined;
  return {
    port,
    stop() {
      stopping ??= (async () => {
        grpcHealth.setServing(false);
        await stopServer(server, opts.grpcStopGraceMs ?? 20_000);
        await outcomes.drain();
        catalog.stop();
      })();
      return stopping;
    },
  };
}
