// Composition root of the executor: config → logger → metrics → catalog and ledger clients →
// NATS → executor (EXECUTIONS stream, the ranking, rails, providers, publishers, gRPC + health) → lifecycle.
// Started as `node --require @agentic/platform/telemetry dist/main.js`; SIGTERM stops it in reverse:
// health off and new calls refused, in-flight executions finish and settle, then NATS drains; all
// within SHUTDOWN_DEADLINE_MS, which config.ts holds above the longest execution.
import { connectBus, natsCredentialsOf, runMain, serviceIdentity, startProcess } from "@agentic/platform";
import { createCatalogClient, createLedgerClient } from "@agentic/clients";
import { configSchema } from "./config";
import { startExecutorApp } from "./app";

async function main(): Promise<void> {
  const { config, logger, life } = await startProcess("executor", configSchema, {
    deadlineMs: (c) => c.SHUTDOWN_DEADLINE_MS,
    metricsPort: (c) => c.METRICS_PORT,
  });
  const identity = serviceIdentity("executor", config.SERVICE_IDENTITY_KEY);
  const catalog = life.closing("catalog client", createCatalogClient(config.CATALOG_ADDR, config.DEPENDENCY_DEADLINE_MS, identity));
  const ledger = life.closing("ledger client", createLedgerClient(config.LEDGER_ADDR, config.DEPENDENCY_DEADLINE_MS, identity));

  const nc = await connectBus(config.NATS_URL, "executor", natsCredentialsOf(config));
  life.onStop("nats", () => nc.drain());

  const app = await startExecutorApp({ config, catalog, ledger, nc, logger, bindAddress: `0.0.0.0:${config.PORT}` });
  life.onStop("executor", () => app.stop()); // runs first: health off, in-flight executions settle, outcomes flushed
}

runMain("executor", main);
