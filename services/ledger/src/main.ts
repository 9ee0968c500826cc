// The ledger process: config → logger → lifecycle (SIGTERM, SIGINT) → metrics server → store → NATS
// → startLedgerApp with ledgerSettings(config); every step registers its stop, so a signal stops them
// in reverse. A start-up failure exits 1 through runMain. Started as
// `node --require @agentic/platform/telemetry dist/main.js`.
import { connectBus, natsCredentialsOf, runMain, startProcess, type Logger } from "@agentic/platform";
import { configSchema, ledgerSettings, ledgerStoreKind, type Config } from "./config";
import { MongoLedgerStore } from "./store/mongo/mongo-store";
import { IN_MEMORY, SqliteLedgerStore } from "./store/sqlite/sqlite-store";
import type { LedgerStore } from "./domain/ports";
import { startLedgerApp } from "./app";

/** Opens the configured store and says which one (and where) in the log. */
async function openStore(config: Config, logger: Logger): Promise<LedgerStore> {
  const kind = ledgerStoreKind(config);
  switch (kind) {
    case "sqlite": {
      const store = await SqliteLedgerStore.open({
        path: config.LEDGER_SQLITE_PATH,
        // Nothing committed is known durable any more and the store refuses everything: exit at once, so
        // the orchestrator restarts the ledger on what the disk really holds (every answer given was durable).
        onDurabilityLost: (failure) => {
          logger.fatal({ err: failure }, "ledger store: an fsync failed; exiting so the ledger restarts on what the disk holds");
          process.exit(1);
        },
      });
      logger.info({ store: kind, path: store.path }, `ledger store: sqlite at ${store.path}`);
      return store;
    }
    case "mongodb": {
      const store = await MongoLedgerStore.connect({ uri: config.MONGODB_URI!, dbName: config.MONGODB_DB });
      logger.info({ store: kind, db: config.MONGODB_DB }, "ledger store: mongodb");
      return store;
    }
    case "memory":
      // No store of its own any more: SQLite in memory, the same code as the durable default.
      logger.warn({ store: kind }, "ledger store: memory, SQLite in memory (for tests; every balance is lost on restart)");
      return SqliteLedgerStore.open({ path: IN_MEMORY });
  }
}

async function main(): Promise<void> {
  const { config, logger, life } = await startProcess("ledger", configSchema, {
    deadlineMs: 20_000,
    metricsPort: (c) => c.METRICS_PORT,
  });
  const store = life.closing("store", await openStore(config, logger));

  const nc = await connectBus(config.NATS_URL, "ledger", natsCredentialsOf(config));
  life.onStop("nats", () => nc.drain());

  const app = await startLedgerApp({
    ...ledgerSettings(config),
    store,
    nc,
    logger,
    bindAddress: `0.0.0.0:${config.PORT}`,
    trustedKeys: config.TRUSTED_SERVICE_KEYS,
  });
  life.onStop("ledger", () => app.stop()); // runs first: health off, drain consumer, stop sweeper and gRPC
  // The reconciliation (every loss, with user ids) is served by the admin RPC GetReconciliation only, never on the
  // metrics port: anything that may scrape metrics could read it there.
}

runMain("ledger", main);
