// Composition root of the ledger: config → logger → metrics → store → NATS → ledger (domain, gRPC +
// health, settlement consumer, expiry sweeper) → lifecycle. Started as
// `node --require @agentic/platform/telemetry dist/main.js`; SIGTERM stops it in reverse order.
import {
  ConfigError,
  connectBus,
  createLogger,
  devHelpersEnabled,
  Lifecycle,
  natsCredentialsOf,
  loadConfig,
  shutdownTelemetryIfLoaded,
  startMetricsServer,
  type Logger,
} from "@agentic/platform";
import { configSchema, ledgerStoreKind, topUpSettings, type Config } from "./config";
import { MemoryLedgerStore } from "./store/memory-store";
import { MongoLedgerStore } from "./store/mongo-store";
import { SqliteLedgerStore } from "./store/sqlite-store";
import type { LedgerStore } from "./domain/ports";
import { startLedgerApp } from "./app";
import { RECONCILIATION_PATH, reconciliationHandler } from "./admin/reconciliation-http";

/** Opens the configured store and says which one (and where) in the log. */
async function openStore(config: Config, logger: Logger): Promise<LedgerStore> {
  const kind = ledgerStoreKind(config);
  switch (kind) {
    case "sqlite": {
      const store = await SqliteLedgerStore.open({ path: config.LEDGER_SQLITE_PATH });
      logger.info({ store: kind, path: store.path }, `ledger store: sqlite at ${store.path}`);
      return store;
    }
    case "mongodb": {
      const store = await MongoLedgerStore.connect({ uri: config.MONGODB_URI!, dbName: config.MONGODB_DB });
      logger.info({ store: kind, db: config.MONGODB_DB }, "ledger store: mongodb");
      return store;
    }
    case "memory":
      logger.warn({ store: kind }, "ledger store: memory (for tests; every balance is lost on restart)");
      return new MemoryLedgerStore();
  }
}

async function main(): Promise<void> {
  const config = loadConfig(configSchema);
  const logger = createLogger("ledger", config.LOG_LEVEL);
  const life = new Lifecycle({ deadlineMs: 20_000, logger });
  life.listen(["SIGTERM", "SIGINT"]);
  life.onStop("telemetry", shutdownTelemetryIfLoaded);
  const metrics = await startMetricsServer(config.METRICS_PORT);
  life.onStop("metrics", () => metrics.close());

  const store = await openStore(config, logger);
  life.onStop("store", () => store.close());

  const nc = await connectBus(config.NATS_URL, "ledger", natsCredentialsOf(config));
  life.onStop("nats", () => nc.drain());

  const topUp = topUpSettings(config);
  const app = await startLedgerApp({
    store,
    nc,
    streamReplicas: config.NATS_STREAM_REPLICAS,
    logger,
    bindAddress: `0.0.0.0:${config.PORT}`,
    trustedKeys: config.TRUSTED_SERVICE_KEYS,
    development: devHelpersEnabled(config.APP_ENV),
    holdTtlMs: config.HOLD_TTL_MS,
    sweepIntervalMs: config.EXPIRY_SWEEP_INTERVAL_MS,
    abandonGraceMs: config.EXECUTION_ABANDON_GRACE_MS,
    apiKeys: config.AGENTIC_API_KEYS,
    settlementConcurrency: config.SETTLEMENT_CONCURRENCY,
    ...(topUp ? { topUp } : {}),
  });
  life.onStop("ledger", () => app.stop()); // runs first: health off, drain consumer, stop sweeper and gRPC
  // Admin report on the internal metrics port only (the gateway never proxies it).
  metrics.handle(RECONCILIATION_PATH, reconciliationHandler(app.ledger));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(`ledger: ${err.message}`);
  else console.error("ledger: failed to start", err);
  process.exit(1);
});
